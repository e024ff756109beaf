import QSData

/// Syncs a store's synced types (those its data model marks `<key>synced</key><true/>`) with a
/// server that speaks QSData's sync protocol. The app saves, updates and deletes as it always
/// does; every change to a synced type, from any writer, is stamped and queued in the same
/// transaction, and ``sync()`` pushes the queue and pulls what other devices sent.
///
/// ```swift
/// let sync = try await QSSync.attach(to: store, transport: QSSyncHTTPTransport(server: server, token: token))
/// try await sync.sync()
/// ```
///
/// What comes from the server is merged per property (the later stamp wins; a delete wins over
/// every edit) and written through the store like any other write: held instances, observers and
/// live queries follow, and the change's ``QSChange/source`` is ``QSChangeSource/sync``.
///
/// An instance the app still held when another device's delete arrived stays deleted: saved
/// afterwards, its row is written again here, not sent, and removed at the next ``sync()``.
/// A new instance with the same uniqueID creates the object again, and so does saving an
/// instance of an object deleted on this device.
@MainActor
public final class QSSync {
    public let store: QSStore
    public let transport: any QSSyncTransport
    /// This database's name in the stamps it makes, kept in the file.
    public let replicaID: SyncReplicaID
    /// The most objects one pull asks for.
    public var pullLimit = SyncProtocol.defaultPullLimit
    /// The most waiting parts one push sends.
    public var pushLimit = 10_000

    let capture: ChangeCapture
    let outbox: Outbox
    let applier: RemoteApplier
    private var running: Task<QSSyncReport, any Error>?

    private init(store: QSStore, transport: any QSSyncTransport, schema: SyncedSchema, clock: HybridLogicalClock, history: SchemaHistory) {
        self.store = store
        self.transport = transport
        replicaID = clock.replica
        capture = ChangeCapture(schema: schema, clock: clock)
        outbox = Outbox(schema: schema)
        applier = RemoteApplier(schema: schema, clock: clock, history: history)
    }

    /// Starts syncing `store`: from now on every committed change to a synced type is queued for
    /// upload. The first time a database is attached, every object it already holds is queued.
    ///
    /// - Parameters:
    ///   - clock: the wall clock stamps start from (a test's, to simulate a device whose clock is wrong).
    ///   - newReplicaID: the ID a database attached for the first time gets (random unless a
    ///     test that must repeat exactly gives one); a database keeps the one it got.
    ///   - schemaChanges: the synced properties renamed or removed since the app version that
    ///     last synced the file.
    /// - Throws: ``QSSyncError/nothingSynced`` when the model marks no type `synced`;
    ///   ``QSSyncError/syncedPropertyRemoved(table:property:)`` when a property the file synced
    ///   before is missing from the model and `schemaChanges` doesn't name it.
    public static func attach(
        to store: QSStore, transport: any QSSyncTransport, clock: QSSyncClock = .system, newReplicaID: SyncReplicaID? = nil,
        schemaChanges: QSSyncSchemaChanges = QSSyncSchemaChanges()
    ) async throws -> QSSync {
        let schema = SyncedSchema(model: store.model)
        guard !schema.isEmpty else { throw QSSyncError.nothingSynced }
        let newReplica = newReplicaID ?? SyncReplicaID.random()
        let (hybridClock, history) = try await syncTransaction("attach sync", on: store) { connection in
            try SyncStateTables.create(on: connection)
            let (history, added) = try SchemaHistory.update(to: schema, changes: schemaChanges, on: connection)
            if let text = try SyncStateTables.text(.replica, on: connection), let replica = SyncReplicaID(text: text) {
                let last = try SyncStateTables.text(.clock, on: connection).flatMap(SyncStamp.init(text:))
                let hybridClock = HybridLogicalClock(replica: replica, wallClock: clock, last: last)
                let capture = ChangeCapture(schema: schema, clock: hybridClock)
                // The columns this version adds were set by no creation merged before it (their
                // records get the zero stamp first, before creations made since are captured);
                // whatever was committed while no sync was attached is queued now; then what an
                // older version kept for what this one syncs is merged.
                try LocalRecord.markAddedColumnsNeverSet(added, schema: schema, on: connection)
                try capture.capture(on: connection)
                if !added.isEmpty {
                    try RemoteApplier(schema: schema, clock: hybridClock, history: history).mergeKept(added, on: connection)
                    try capture.skipToEnd(on: connection)
                }
                return (hybridClock, history)
            }
            try SyncStateTables.set(.replica, to: .text(newReplica.text), on: connection)
            let hybridClock = HybridLogicalClock(replica: newReplica, wallClock: clock, last: nil)
            try ChangeCapture(schema: schema, clock: hybridClock).captureEverything(on: connection)
            return (hybridClock, history)
        }
        let sync = QSSync(store: store, transport: transport, schema: schema, clock: hybridClock, history: history)
        let capture = sync.capture
        try await store.setCommitHook { transaction in
            // Sync's own writes place the log themselves: what they merged is not an edit to send back.
            guard transaction.source == .app else { return }
            try capture.capture(on: transaction.connection, committing: transaction)
        }
        return sync
    }

    /// Runs `body` in a write transaction of the sync's own; a ``QSSyncError`` it throws is
    /// thrown as it is, not wrapped in the store's ``QSWriteError``.
    static func syncTransaction<Value: Sendable>(
        _ operation: String, on store: QSStore, _ body: @escaping @Sendable (SQLiteConnection) throws -> Value
    ) async throws -> Value {
        do {
            return try await store.writeInOwnTransaction(operation, source: .sync, body)
        } catch let error as QSWriteError {
            if let syncError = error.underlying as? QSSyncError { throw syncError }
            throw error
        }
    }

    /// Stops queueing changes. The queue stays in the file, and the next ``attach(to:transport:clock:)``
    /// picks up every change committed meanwhile.
    public func detach() async throws {
        try await store.setCommitHook(nil)
    }

    /// Pushes everything waiting, then pulls everything new: of the account's own objects, then
    /// of each group's it is a member of (when the model shares objects in groups; the objects
    /// of a group it no longer belongs to are removed here first). A call made while another
    /// runs waits for that one and returns its report.
    @discardableResult
    public func sync() async throws -> QSSyncReport {
        if let running { return try await running.value }
        let task = Task { @MainActor in
            var report = QSSyncReport()
            var spaces: [String?] = [nil]
            if self.applier.schema.sharesGroups { spaces += try await self.followMembership(into: &report) }
            for space in spaces {
                do {
                    try await self.sync(space, into: &report)
                } catch let QSSyncError.server(status, code, _)
                    where space != nil && ((status, code) == (403, "notAMember") || (status, code) == (404, "groupNotFound")) {
                    // Taken out of the group (or the group gone) since the list was read.
                    if let group = space { try await self.leave(group, into: &report) }
                }
            }
            report.blobsDownloaded += try await self.downloadEagerBlobs()
            return report
        }
        running = task
        defer { running = nil }
        return try await task.value
    }

    /// Syncs one space: the account's own objects (nil), or a group's.
    private func sync(_ space: String?, into report: inout QSSyncReport) async throws {
        // A replica pulls before its first push, so that every push says how far it had
        // pulled; and after a push whose answer was lost, so as not to send it again if it arrived.
        let neverPulled = try await storedToken(space) == nil
        let unanswered = try await outbox.hasUnansweredParts(space: space, in: store)
        if neverPulled || unanswered {
            try await pull(space, into: &report)
        }
        do {
            try await pushAll(space, into: &report)
        } catch QSSyncError.server(status: 410, code: "resyncRequired", _) {
            try await resync(space, into: &report)
            try await pushAll(space, into: &report)
        }
        try await pull(space, into: &report)
    }

    /// How many parts of objects wait to be pushed (a creation, a deletion, or one property each).
    public func waitingCount() async throws -> Int {
        try await store.read { connection in try Outbox.count(on: connection) }
    }

    private func pushAll(_ space: String?, into report: inout QSSyncReport) async throws {
        let capture = self.capture, outbox = self.outbox, limit = pushLimit
        let token = try await storedToken(space)
        while true {
            let next = try await Self.syncTransaction("sync: read the outbox", on: store) { connection in
                try capture.capture(on: connection)
                return try outbox.nextPush(limit: limit, space: space, on: connection)
            }
            guard !next.sent.isEmpty else { return }
            if !next.changes.isEmpty {
                let request = SyncPushRequest(replica: replicaID, changes: next.changes, since: token, number: next.number, group: space)
                // The bytes of the blobs the push names go first: the server takes no reference to bytes it lacks.
                for (blob, bytes) in next.uploads.sorted(by: { $0.key.sha256 < $1.key.sha256 }) {
                    report.blobPartsUploaded += try await upload(blob, bytes: bytes, group: space)
                }
                do {
                    _ = try await transport.push(request)
                } catch let error as QSSyncError {
                    if case .server = error {
                        let number = next.number
                        try await Self.syncTransaction("sync: a push refused", on: store) { connection in
                            try Outbox.refused(number: number, on: connection)
                        }
                    }
                    throw error
                }
                report.pushRequests += 1
                report.pushedObjects += request.objectCount
            }
            let sent = next.sent
            try await Self.syncTransaction("sync: acknowledge a push", on: store) { connection in
                try outbox.acknowledge(sent, on: connection)
            }
        }
    }
}

/// What one ``QSSync/sync()`` did.
public struct QSSyncReport: Sendable, Equatable {
    public var pushRequests = 0
    /// Objects sent (each at most once a push, however many of its parts changed).
    public var pushedObjects = 0
    public var pullRequests = 0
    public var pulledObjects = 0
    /// Pulled objects that changed something here (an object this replica pushed itself comes
    /// back and changes nothing).
    public var appliedObjects = 0
    /// Objects that could not be created here yet: a change arrived without the object's
    /// creation (its table requires values the change lacks).
    public var incompleteObjects = 0
    /// Tables the server sent that this model does not sync (a newer app version's, say).
    public var unknownTables: Set<String> = []
    /// Times the server said this replica had been away longer than it keeps deletions, so
    /// everything was pulled again.
    public var resyncs = 0
    /// Parts of blobs' bytes sent (a part the server held already, from an upload cut short or
    /// another object naming the same bytes, is not sent again).
    public var blobPartsUploaded = 0
    /// Blobs whose bytes were downloaded, and the columns they filled.
    public var blobsDownloaded = 0
    /// Objects removed here by a resync: the server no longer holds them (deleted on another
    /// device, and collected since), and this replica had not just created them.
    public var objectsRemovedByResync = 0
    /// Objects removed here because the account is no longer a member of their group.
    public var objectsRemovedWithGroups = 0

    public init() {}
}
