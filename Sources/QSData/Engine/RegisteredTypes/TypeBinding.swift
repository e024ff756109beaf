/// One registered Swift type joined to its model description: its columns, its SQL, its cache.
///
/// The generic ``TypeBinding`` does the work that needs the Swift type (making and encoding
/// instances); ``AnyTypeBinding`` lets the store reach a relationship's child type by name.
protocol AnyTypeBinding: AnyObject, Sendable {
    var description: QSObjectDescription { get }
    var layout: RowLayout { get }
    var sql: TableSQL { get }
    /// What the schema says of the type's table beyond the model (see ``TableFacts``).
    var tableFacts: TableFacts { get }

    /// Database queue: the children of a relationship for the given lookup rows.
    func childrenByParent(_ rows: LookupRows, in context: ConnectionAndTypes) throws -> ChildrenByParent

    /// Main actor: adds the children of a saved parent to the batch, once each.
    func addChildren(_ children: any RelatedChildren, to batch: inout SaveBatch, registry: TypeRegistry) throws

    /// Whether the type keeps instances at all (uniqued classes and permanent caches do).
    var cachesInstances: Bool { get }

    /// Main actor: whether an instance with this uniqueID is cached or alive.
    func hasCachedInstance(_ id: QSAnyID) -> Bool

    /// Main actor: makes cached instances reflect new column values. Returns the IDs patched.
    @discardableResult
    func patchCachedInstances(ids: [QSAnyID], with columns: [String: SQLValue], timing: PatchTiming) throws -> [QSAnyID]

    /// Database queue: what the rows for `ids` hold, in order, where an instance is kept and its
    /// row known. One lock for all: the main actor takes the same lock as it saves, and taking
    /// it per row made the two wait on each other. Rows `isKnownMissing` marks are not looked for.
    func snapshots(for ids: [QSAnyID], isKnownMissing: [Bool]) -> [RowSnapshot?]

    /// Database queue: records what the rows hold (nil: unknown), where an instance is kept.
    func setSnapshots(_ updates: consuming [(id: QSAnyID, snapshot: RowSnapshot?)])

    /// Database queue: records new values for some columns (by layout position) of these rows.
    func patchSnapshots(_ ids: [QSAnyID], columns: [(index: Int, value: SQLValue)])

    /// Forgets cached instances.
    func evict(_ ids: [QSAnyID])

    /// Main actor: forgets the instances of rows a committed write deleted, except those the app
    /// saved again through a later write.
    func evict(_ ids: [QSAnyID], afterCommitOf stamp: UInt64)

    /// Main actor: forgets cached instances and returns what puts them back (thread-safe).
    func evictKeepingInstances(_ ids: [QSAnyID]) -> @Sendable () -> Void

    /// Main actor: makes cached instances that list any of `ids` in `relationship` drop them,
    /// keeping the order of the rest. Returns the IDs of the instances changed.
    func dropChildren(_ ids: Set<QSAnyID>, from relationship: String, timing: PatchTiming) -> [QSAnyID]

    /// Main actor: whether an instance the store holds for one of `ids` lists children in
    /// `relationship`.
    func cachedInstanceListsChildren(ids: [QSAnyID], in relationship: String) throws -> Bool

    /// Database queue: reads the rows of `ids` as the database holds them, and returns the
    /// main-actor work that makes the cached instances match. Returns the IDs it patched or evicted.
    func restoreCachedInstances(ids: [QSAnyID], in context: ConnectionAndTypes) throws -> @MainActor @Sendable () -> [QSAnyID]

    /// The number of instances the cache holds alive.
    var cachedInstanceCount: Int { get }
}

final class TypeBinding<Object: QSDataObject>: AnyTypeBinding, @unchecked Sendable {
    let description: QSObjectDescription
    let layout: RowLayout
    let sql: TableSQL
    let cache: ObjectCache<Object>
    /// `update(from:)` of the type, when it is a ``QSUpdatableObject``: its conformance is found
    /// once here rather than by a dynamic cast for every instance patched.
    let updateInPlace: ((Object, QSRow) throws -> Void)?
    let tableFacts = TableFacts()

    init(description: QSObjectDescription) {
        self.description = description
        self.layout = RowLayout(description: description)
        self.sql = TableSQL(description: description)
        let isClass = Object.self is AnyObject.Type
        if description.cachePermanently {
            cache = ObjectCache(policy: .strong)
        } else if description.uniqued && isClass {
            cache = ObjectCache(policy: .weak)
        } else {
            cache = ObjectCache(policy: .none)
        }
        if let updatable = Object.self as? any QSUpdatableObject.Type {
            updateInPlace = Self.updater(for: updatable)
        } else {
            updateInPlace = nil
        }
    }

    /// Calls `update(from:)` on instances of `Object`, which is `Updatable` (a class).
    private static func updater<Updatable: QSUpdatableObject>(for _: Updatable.Type) -> (Object, QSRow) throws -> Void {
        { object, row in try unsafeDowncast(unsafeBitCast(object, to: AnyObject.self), to: Updatable.self).update(from: row) }
    }

    var cachedInstanceCount: Int { cache.count }

    func evict(_ ids: [QSAnyID]) {
        cache.remove(anyIDs: ids)
    }

    func evict(_ ids: [QSAnyID], afterCommitOf stamp: UInt64) {
        let timing = PatchTiming.afterCommit(of: stamp)
        cache.remove(ids.compactMap { Object.UniqueID(anyID: $0) }.filter { !timing.skips($0, in: cache) })
    }
}
