/// Reads on reader connections, while a background write runs (see ``QueueEntrance``).
extension QSStore {
    /// How many times a fetch on a reader is tried before it goes to the queue instead (see
    /// ``keep(_:binding:)`` for why one is tried again).
    static let readerAttempts = 3

    /// Runs `work`, which only reads, on a reader connection when a background write is in flight
    /// and no foreground write was handed over since it began; on the queue otherwise.
    func performRead<Value: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> Value) async throws -> Value {
        try checkOpen()
        guard let gate = database.readGate else { return try await perform(work) }
        defer { changeCenter.deliverFinishedWork() }
        return try await readOnReader(after: gate, work)
    }

    /// Waits for `gate` (the writes enqueued before the background write), then runs `work` on a
    /// reader connection.
    private func readOnReader<Value: Sendable>(after gate: ReadGate, _ work: @escaping @Sendable (SQLiteConnection) throws -> Value) async throws -> Value {
        await gate.waitUntilOpen()
        try checkOpen()
        return try await readers.read(work)
    }

    /// Runs a fetch on a reader connection and hands its instances to the main actor, with the
    /// number of the last write its read reflects; nil when the fetch must run on the queue
    /// instead (see ``keep(_:binding:)``).
    func fetchOnReader<Object>(
        _ binding: TypeBinding<Object>, _ request: FetchRequest, after gate: ReadGate
    ) async throws -> (objects: [Object], extraValues: [SQLValue], commitNumber: UInt64)? {
        let registry = self.registry
        let finishedWrites = changeCenter.finishedWrites
        for _ in 0 ..< Self.readerAttempts {
            let read = try await readOnReader(after: gate) { connection in
                // Counted before the read's first statement takes its snapshot: the snapshot holds
                // every write counted here, and perhaps one that commits meanwhile.
                let commitNumber = finishedWrites.lastCommitNumber
                let context = QueueContext(readerConnection: connection, registry: registry)
                var extraValues: [SQLValue] = []
                let objects = try binding.fetch(request, in: context, extraValues: &extraValues)
                return ObjectsInTransit(value: (objects: objects, made: context.made, commitNumber: commitNumber, extraValues: extraValues))
            }
            switch keep((read.value.objects, read.value.made, read.value.commitNumber), binding: binding) {
            case .kept(let objects):
                changeCenter.deliverFinishedWork()
                return (objects, read.value.extraValues, read.value.commitNumber)
            case .readAgain:
                continue
            case .readWhenUnsealed:
                await readAdoptions.waitUntilUnsealed()
            case .readOnQueue:
                return nil
            }
        }
        return nil
    }

    private enum ReaderOutcome<Object> {
        case kept([Object])
        /// A write committed after the read's snapshot, or the main actor got another instance
        /// for a row meanwhile: read again.
        case readAgain
        /// The queue is posting a commit or making instances: read again once it is done.
        case readWhenUnsealed
        /// The read made an instance for a row the background write changed in memory: only a
        /// read after the write can make one that agrees with the app's.
        case readOnQueue
    }

    /// The objects a reader's fetch returned, with the instances the main actor holds for their
    /// rows swapped in, and the instances the read made kept; or why the read can't be used:
    /// - it made an instance for a row that a background write in flight changed in memory (or
    ///   deleted) and that no live instance stands for: the row as committed is not what the app
    ///   made it, and the write's commit would not correct an instance it never touched;
    /// - a write committed after the read's snapshot: a row it read may have changed since, and a
    ///   new instance made from the older row would keep the older values for good (the change
    ///   has reached, or is reaching, the main actor without it);
    /// - a child instance the read made for a row that now has another instance held: a parent
    ///   would hold a second instance of one row.
    ///
    /// The held instances are looked at before the commit number, so that a write's instances,
    /// which it holds until it has posted its commit, can't die unnoticed in between.
    private func keep<Object>(_ read: (objects: [Object], made: MadeInstances, commitNumber: UInt64), binding: TypeBinding<Object>) -> ReaderOutcome<Object> {
        let isClass = Object.self is AnyObject.Type
        let returned = isClass ? Set(read.objects.map { ObjectIdentifier(Instance.reference($0)) }) : []
        var outcome = ReaderOutcome<Object>.kept([])
        for record in read.made.made {
            let table = record.binding.description.table
            for (id, instance) in zip(record.ids, record.instances) {
                if record.binding.holdsAnother(than: instance, for: id) {
                    let isReturnedObject = record.binding === binding && returned.contains(ObjectIdentifier(instance.object))
                    if !isReturnedObject { outcome = .readAgain }
                } else if database.backgroundWriteTouched(id, in: table) {
                    return .readOnQueue
                }
            }
        }
        if case .readAgain = outcome { return outcome }
        let objects = read.objects.map { binding.cache.object(for: $0.uniqueID) ?? $0 }
        // The instances kept: those made for rows no live instance stands for.
        let kept = read.made.made.map { record in
            let unheld = zip(record.ids, record.binding.heldInstances(for: record.ids)).map { $0.1 == nil }
            let positions = unheld.indices.filter { unheld[$0] }
            return (binding: record.binding, ids: positions.map { record.ids[$0] }, instances: positions.map { record.instances[$0] })
        }
        switch readAdoptions.deposit(kept, reflecting: read.commitNumber, finishedWrites: changeCenter.finishedWrites) {
        case .taken: break
        case .sealed: return .readWhenUnsealed
        case .refused: return .readAgain
        }
        for record in kept { record.binding.keepRead(ids: record.ids, instances: record.instances) }
        return .kept(objects)
    }
}
