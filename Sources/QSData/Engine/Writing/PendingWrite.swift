/// The writes ``QSStore/performBatch(_:)`` is collecting, and the ticket they will share.
struct CollectedBatch {
    let ticket: QSWrite
    var writes: [PendingWrite] = []
}

/// A write waiting to be enqueued: what it is, and the work it does in its transaction.
struct PendingWrite {
    let operation: String
    let source: QSChangeSource
    let work: @Sendable (RowWriter, inout QSChange) throws -> AfterCommitWork?
    let touches: MemoryTouches?
    let ticket: QSWrite
    /// Runs on the queue when the write's transaction has failed, before `touches` are read to
    /// put memory back: a large save stops encoding there, so that they are complete.
    var beforeRestoring: (@Sendable () -> Void)?
}

/// What a write leaves for the main actor once its transaction has committed, such as patching
/// the cached instances of the rows an update `where:` changed. A failure is reported through the
/// store's write errors (the write itself stays committed).
typealias AfterCommitWork = @MainActor @Sendable () throws -> Void
