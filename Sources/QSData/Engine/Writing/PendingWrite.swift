/// The batch ``QSStore/performBatch(_:)`` or ``QSStore/performInBackground(_:)`` is running:
/// the ticket its writes share, and where they go as its body makes them.
@MainActor
struct OpenBatch {
    let ticket: QSWrite
    let stream: WriteStream
    let registry: TypeRegistry
    /// For a background batch, where the rows its writes change in memory are noted for reads.
    let changedRows: RowsChangedInBackground?
    /// The batch's large saves, whose later chunks are cancelled should the body throw.
    private(set) var largeSaves: [LargeSaveEncoding] = []

    init(ticket: QSWrite, stream: WriteStream, registry: TypeRegistry, changedRows: RowsChangedInBackground?) {
        self.ticket = ticket
        self.stream = stream
        self.registry = registry
        self.changedRows = changedRows
    }

    /// Hands `write` to the batch's transaction, behind what the instance tables noted before it
    /// (as enqueueing it on its own would, see ``QueueEntrance``).
    mutating func add(_ write: PendingWrite) {
        if let encoding = write.largeSave { largeSaves.append(encoding) }
        if let touches = write.touches { changedRows?.add(touches, growing: write.largeSave != nil) }
        stream.add(write, notesBefore: registry.takeKnownRowsNotes())
    }
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
    /// The stamp of the save whose change marks this write writes (see
    /// ``ObjectCache/noteMarkedInFlight(_:of:stamp:)``): once it commits, they are no longer in
    /// flight. Nil for a write that took no marks.
    var marksTakenBy: UInt64?
}

/// What a write leaves for the main actor once its transaction has committed, such as patching
/// the cached instances of the rows an update `where:` changed. A failure is reported through the
/// store's write errors (the write itself stays committed).
typealias AfterCommitWork = @MainActor @Sendable () throws -> Void
