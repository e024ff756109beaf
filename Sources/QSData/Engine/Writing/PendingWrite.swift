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
    /// A large save's encoding, still going on the main actor while the write may already run:
    /// stopped before `touches` are read to put memory back, so that they are complete.
    var largeSave: LargeSaveEncoding?
}

/// What a write leaves for the main actor once its transaction has committed, such as patching
/// the cached instances of the rows an update `where:` changed. A failure is reported through the
/// store's write errors (the write itself stays committed).
typealias AfterCommitWork = @MainActor @Sendable () throws -> Void
