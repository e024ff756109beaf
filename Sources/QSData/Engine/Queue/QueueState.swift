/// What the database queue owns: the SQLite connection, whether its snapshots are still true,
/// what it knows of the rows of each type that keeps instances, and which rows of value-type
/// children exist.
///
/// Not `Sendable`, on purpose: ``DatabaseQueue`` keeps it and hands it to each piece of work as
/// that work runs on the queue, and the compiler lets no one carry it anywhere else.
final class QueueState {
    let connection: SQLiteConnection
    let snapshotTrust = SnapshotTrust()
    /// The snapshots reads of other writers' changes replaced, for saves encoded before those
    /// reads reached the main actor.
    let replacedSnapshots = ReplacedSnapshots()
    /// A bulk update's transaction, between its `UPDATE` and its commit (see
    /// ``WriteTransaction/begin(on:)``).
    var openTransaction: OpenTransaction?
    /// The store's side of the change log; nil until the store has opened.
    var changeLog: ChangeLog?
    /// Work another module of the package (sync) runs in every write transaction before it commits.
    var commitHook: QSCommitHook?
    /// Reads what other writers changed; nil until the store has opened.
    var outsideChanges: OutsideChanges?
    /// What wakes the store when another writer commits, held quiet while the store's own write
    /// transactions run; nil until the store has opened, and where files can't be watched.
    var fileWatcher: FileChangeWatcher?
    /// The instances reads on reader connections made, for the queue's tables; nil until the
    /// store has opened, and on a reader.
    var readAdoptions: ReadAdoptions?
    /// The size the write-ahead log is cut back to after a background write grew it past it
    /// (``QSStoreOptions/walSizeLimit``).
    var walSizeLimit = QSStoreOptions().walSizeLimit
    // Touched for every row or instance, by one thread, one access at a time: unchecked, since
    // Swift's dynamic exclusivity check cost more than most of the accesses.
    @exclusivity(unchecked) private var knownRowsByType: [ObjectIdentifier: KnownRows] = [:]
    /// Which rows of the types that keep no instances and are children of a relationship exist.
    let knownValueRows: KnownValueRows

    init(connection: SQLiteConnection, valueChildTables: Set<String>) {
        self.connection = connection
        knownValueRows = KnownValueRows(tables: valueChildTables, trust: snapshotTrust)
    }

    /// Posts what other connections committed since the store last looked, for the main actor
    /// to take in before the work about to run hands anything up.
    func catchUpWithOtherConnections() throws {
        _ = try withReadAdoptionsTaken { try outsideChanges?.catchUp(self, origin: .otherConnection) }
    }

    /// Runs awaited work (a fetch, a refresh, the app's SQL): what other connections committed
    /// is taken in first, and no read on a reader is kept while it runs (see ``ReadAdoptions``).
    func runSealed<Value>(_ work: (QueueState) throws -> Value) throws -> Value {
        try withReadAdoptionsTaken {
            try outsideChanges?.catchUp(self, origin: .otherConnection)
            return try work(self)
        }
    }

    /// Keeps the instances reads on readers made in the queue's tables, then runs `body`, which
    /// may post a commit, while no more are taken (see ``ReadAdoptions``).
    func withReadAdoptionsTaken<Value>(_ body: () throws -> Value) rethrows -> Value {
        guard let readAdoptions else { return try body() }
        readAdoptions.sealAndApply(to: self)
        defer { readAdoptions.unseal() }
        return try body()
    }

    /// What the queue knows of the rows of `binding`'s type (a type that keeps instances).
    func knownRows(of binding: any AnyTypeBinding) -> KnownRows {
        let key = ObjectIdentifier(binding)
        if let rows = knownRowsByType[key] { return rows }
        let rows = KnownRows(
            policy: binding.cachePolicy, tracksChanges: binding.tracksChanges,
            hasRelationships: !binding.description.relationships.isEmpty)
        knownRowsByType[key] = rows
        return rows
    }
}

/// What work on the database queue needs to read rows and make instances of any type: the
/// queue's state and the registered types (a relationship reaches its child type through them).
struct QueueContext {
    let state: QueueState
    let registry: TypeRegistry
    /// The instances a fetch made, for the main actor to keep as well.
    let made: MadeInstances
    /// Set when the work runs on a reader connection rather than on the database queue: where
    /// the instances the main actor holds are found (the queue's own tables are the queue's alone).
    /// The ``state`` is then the read's own, thrown away after it.
    let heldOnMainActor: HeldOnMainActor?
    /// How many eagerly loaded relationships the fetch has followed to reach the read running
    /// now: each level runs one level deeper on the stack (see ``QSStore/deepestEagerLoading``).
    private(set) var eagerLevels = 0

    init(state: QueueState, registry: TypeRegistry, made: MadeInstances? = nil) {
        self.state = state
        self.registry = registry
        self.made = made ?? MadeInstances(adoptions: state.readAdoptions)
        heldOnMainActor = nil
    }

    /// The context of one read on a reader connection.
    init(readerConnection: SQLiteConnection, registry: TypeRegistry) {
        state = QueueState(connection: readerConnection, valueChildTables: [])
        self.registry = registry
        made = MadeInstances(adoptions: nil)
        heldOnMainActor = HeldOnMainActor()
    }

    /// Whether the work runs on a reader connection.
    var readsOnReader: Bool { heldOnMainActor != nil }

    var connection: SQLiteConnection { state.connection }

    /// Runs `work`; when it throws, the queue's tables let go of the instances it made, which
    /// the main actor will never keep: a later read then makes them again and hands them over,
    /// rather than finding them in the queue's table only.
    func forgettingMadeInstancesOnFailure<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch {
            made.forget(in: state)
            throw error
        }
    }

    /// This context, one eagerly loaded relationship deeper; throws when the fetch has followed
    /// ``QSStore/deepestEagerLoading`` of them already.
    func followingEagerRelationship(_ relationship: String, of type: String) throws -> QueueContext {
        guard eagerLevels < QSStore.deepestEagerLoading else {
            throw QSDataError.eagerLoadingTooDeep(type: type, relationship: relationship, levels: eagerLevels)
        }
        var deeper = self
        deeper.eagerLevels += 1
        return deeper
    }
}

/// The instances one piece of queue work made for rows of types that keep instances: the queue's
/// table holds them already, and the main actor keeps them in its own once the work is done.
final class MadeInstances {
    /// `hashes` are the IDs' hashes (see ``IDHashing``), so that the main actor hashes none again.
    typealias Record = (binding: any AnyTypeBinding, ids: [QSAnyID], hashes: [UInt64], instances: [Instance])
    /// What each fetch made, in the order the fetches ended (a fetch's children before it).
    @exclusivity(unchecked) private(set) var made: [Record] = []
    /// Told of the handover, so that no read on a reader keeps other instances for these rows
    /// meanwhile; nil on a reader.
    private let adoptions: ReadAdoptions?

    init(adoptions: ReadAdoptions?) {
        self.adoptions = adoptions
    }

    /// Records what a fetch of `binding`'s type made.
    func record(_ binding: any AnyTypeBinding, ids: [QSAnyID], hashes: [UInt64], instances: [Instance]) {
        guard !ids.isEmpty else { return }
        made.append((binding, ids, hashes, instances))
    }

    /// The work that made them failed: the queue's tables let go of them, and the main actor
    /// is given none.
    func forget(in state: QueueState) {
        for (binding, ids, _, _) in made { state.knownRows(of: binding).remove(ids) }
        made = []
    }

    /// The main-actor work that keeps them in the main actor's tables.
    func handOver() -> @MainActor @Sendable () -> Void {
        let made = ObjectsInTransit(value: self.made)
        let adoptions = self.adoptions
        let handover = made.value.isEmpty ? nil : adoptions?.handoverStarted()
        return {
            for (binding, ids, hashes, instances) in made.value {
                binding.keepFetched(ids: ids, hashes: hashes, instances: instances)
            }
            if let handover { adoptions?.handedOver(handover) }
        }
    }
}
