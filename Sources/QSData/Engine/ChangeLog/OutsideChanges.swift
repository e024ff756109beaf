/// Turns the change log's entries from other writers into what the main actor needs: the
/// change observers hear, and the work that brings held and cached instances in step.
///
/// Built on the database queue, from entries read in the same transaction as the rows it
/// re-reads, so the instances are patched to one consistent state of the file.
struct OutsideChanges {
    let registry: TypeRegistry
    let finishedWrites: FinishedWrites

    /// Database queue: reads the log if another connection committed since the store last
    /// looked (or, with `force`, in any case: after the app's own SQL), and posts what changed
    /// for the main actor. Returns whether anything was posted.
    @discardableResult
    func catchUp(_ state: QueueState, origin: QSChange.Origin, force: Bool = false) throws -> Bool {
        guard let log = state.changeLog else { return false }
        guard try log.hasOutsideCommits(on: state.connection) || force else { return false }
        guard let read = try read(state, origin: origin) else { return false }
        finishedWrites.post(read.item())
        return true
    }

    /// Database queue: reads the entries after the store's position and returns what changed;
    /// nil when there are none.
    ///
    /// Inside a write transaction that may still roll back (reading the app's own SQL back
    /// before the commit), `tracker` is the transaction's: what the read changed in the queue's
    /// tables is then undone with the rest of the transaction, and the read is posted only once
    /// the transaction commits.
    func read(
        _ state: QueueState, origin: QSChange.Origin, source: QSChangeSource = .app, tracker: ChangeTracker? = nil
    ) throws -> OutsideChangesRead? {
        guard let entries = try readEntries(state) else { return nil }
        return try rereadRows(named: entries, state, origin: origin, source: source, tracker: tracker)
    }

    /// Database queue: the entries other connections committed since the store last looked,
    /// read when any did (the position moves past them); nil when there are none. A write
    /// transaction reads them as it begins and their rows once its writes are done.
    func entriesOfOtherConnections(_ state: QueueState) throws -> NewLogEntries? {
        guard let log = state.changeLog, try log.hasOutsideCommits(on: state.connection) else { return nil }
        return try readEntries(state)
    }

    /// Database queue: the entries after the store's position (which moves past them); nil
    /// when there are none.
    private func readEntries(_ state: QueueState) throws -> NewLogEntries? {
        guard let log = state.changeLog else { return nil }
        let (entries, missed) = try log.readNewEntries(on: state.connection)
        guard !entries.isEmpty || missed else { return nil }
        return NewLogEntries(entries: entries, missed: missed)
    }

    /// Database queue: re-reads the rows `new` names, for the instances held, and returns what
    /// changed (see ``read(_:origin:source:tracker:)``).
    func rereadRows(
        named new: NewLogEntries, _ state: QueueState, origin: QSChange.Origin, source: QSChangeSource = .app, tracker: ChangeTracker?
    ) throws -> OutsideChangesRead {
        let (entries, missed) = (new.entries, new.missed)
        // The store's snapshots of the changed rows are replaced below; a fetch may no longer
        // keep the snapshot of a dead instance it finds either.
        state.snapshotTrust.distrustAll()
        let context = QueueContext(state: state, registry: registry)
        let read = state.replacedSnapshots.nextRead()
        var change = QSChange(source: source)
        change.origin = origin
        var work: [@MainActor @Sendable () -> Void] = []
        let touched = missed ? everyKnownRow(in: state) : Self.rowsByTable(entries)
        change.mayOmitRows = missed
        for (table, rows) in touched.sorted(by: { $0.key < $1.key }) {
            for binding in registry.bindings(onTable: table) {
                let name = binding.description.name
                if missed, change.changesByType[name] == nil { change.changesByType[name] = QSChange.IDs() }
                let inserted = rows.inserted, updated = rows.updated, deleted = rows.deleted
                change.record(\.insertedList, inserted, of: name)
                change.record(\.updatedList, updated, of: name)
                change.record(\.deletedList, deleted, of: name)
                let patch = try context.forgettingMadeInstancesOnFailure {
                    try binding.outsideChangeWork(ids: inserted + updated + deleted, in: context, read: read, tracker: tracker)
                }
                work.append { _ = patch() }
                if !deleted.isEmpty { work.append(dropDeletedChildren(Set(deleted), of: name)) }
            }
        }
        tracker?.recordMade(context.made)
        return OutsideChangesRead(
            change: change, operationName: origin.operationName, made: context.made, work: work, read: read,
            merged: registry.outsideReadsMerged)
    }

    /// Each table's rows, by what happened to them over all the entries: a row inserted and then
    /// deleted counts as deleted, one deleted and inserted again as updated.
    static func rowsByTable(_ entries: [ChangeLogEntry]) -> [String: TouchedRows] {
        var tables: [String: TouchedRows] = [:]
        for entry in entries {
            tables[entry.table, default: TouchedRows()].add(entry)
        }
        return tables
    }

    /// Everything the store keeps, as updated: what it reads when it missed entries.
    private func everyKnownRow(in state: QueueState) -> [String: TouchedRows] {
        var tables: [String: TouchedRows] = [:]
        for table in state.changeLog?.typesByTable.keys ?? [:].keys {
            let bindings = registry.bindings(onTable: table).filter(\.cachesInstances)
            tables[table] = TouchedRows(updated: bindings.flatMap { state.knownRows(of: $0).allIDs })
        }
        return tables
    }

    /// Main-actor work: the kept instances that list deleted children drop them.
    private func dropDeletedChildren(_ ids: Set<QSAnyID>, of typeName: String) -> @MainActor @Sendable () -> Void {
        let registry = self.registry
        return {
            for parent in registry.all where parent.cachesInstances {
                for relationship in parent.description.relationships where relationship.childType == typeName {
                    _ = parent.dropChildren(ids, from: relationship.name, timing: .atOnce)
                }
            }
        }
    }
}

/// Entries of the change log read after the store's position: `missed` when some it had not
/// read were removed (everything held must then be read again).
struct NewLogEntries {
    let entries: [ChangeLogEntry]
    let missed: Bool
}

/// What a read of the change log found: the change observers hear, the instances it made, and
/// the main-actor work that brings the instances held in step.
struct OutsideChangesRead {
    let change: QSChange
    let operationName: String
    let made: MadeInstances
    let work: [@MainActor @Sendable () -> Void]
    /// The read's number (see ``ReplacedSnapshots``), and the main actor's count of reads merged.
    let read: UInt64
    let merged: OutsideReadsMerged

    /// Database queue, once what was read is committed: what to post for the main actor.
    func item() -> FinishedWrites.Item {
        let keepMade = made.handOver()
        let (work, read, merged) = (self.work, self.read, self.merged)
        let patchAll: AfterCommitWork = {
            keepMade()
            for item in work { item() }
            merged.merged(read)
        }
        return .committed(change, operation: operationName, afterCommit: patchAll)
    }
}

/// The rows of one table that entries of the change log name, each under what finally
/// happened to it.
struct TouchedRows {
    private var order: [QSAnyID] = []
    private var kindByID: [QSAnyID: ChangeLogEntry.Kind] = [:]

    init() {}

    /// Rows that may all have changed.
    init(updated ids: [QSAnyID]) {
        for id in ids { note(id, .update) }
    }

    var inserted: [QSAnyID] { order.filter { kindByID[$0] == .insert } }
    var updated: [QSAnyID] { order.filter { kindByID[$0] == .update } }
    var deleted: [QSAnyID] { order.filter { kindByID[$0] == .delete } }

    mutating func add(_ entry: ChangeLogEntry) {
        for id in entry.ids { note(id, entry.kind) }
    }

    /// A row inserted then updated is inserted; a row deleted last is deleted; a row deleted
    /// and inserted again, like one updated, is updated.
    private mutating func note(_ id: QSAnyID, _ kind: ChangeLogEntry.Kind) {
        guard let previous = kindByID[id] else {
            kindByID[id] = kind
            order.append(id)
            return
        }
        switch (previous, kind) {
        case (_, .delete): kindByID[id] = .delete
        case (.insert, _): kindByID[id] = .insert
        default: kindByID[id] = .update
        }
    }
}
