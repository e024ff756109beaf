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
    /// How the type keeps instances: not at all, while the app holds them, or for good.
    var cachePolicy: InstanceTable.Policy { get }
    /// Whether the type keeps instances that say which properties they set (see
    /// ``QSChangeTrackingObject``): the store then keeps no hash of their rows' values.
    var tracksChanges: Bool { get }

    // MARK: Database queue

    /// The children of a relationship for the given lookup rows.
    func childrenByParent(_ rows: LookupRows, through relationship: String, of parentType: String, in context: QueueContext) throws -> ChildrenByParent

    /// Reads the rows of `ids` as the database holds them, and returns the main-actor work that
    /// makes the cached instances match, but for those the app saved through a write after the
    /// write `stamp`, which rolled back. The work returns the IDs it patched or evicted.
    func restoreCachedInstances(ids: [QSAnyID], stamp: UInt64, in context: QueueContext) throws -> @MainActor @Sendable () -> [QSAnyID]

    /// Re-reads the rows of `ids` another writer changed, and returns the main-actor work that
    /// patches the instances kept for them (see ``TypeBinding/outsideChangeWork(ids:in:read:tracker:)``).
    func outsideChangeWork(ids: [QSAnyID], in context: QueueContext, read: UInt64, tracker: ChangeTracker?) throws -> @MainActor @Sendable () -> [QSAnyID]

    /// Database queue: the rows `statement` selects as fresh instances encode them (see
    /// ``TypeBinding/rowsAsEncoded(_:_:in:)``).
    func rowsAsEncoded(_ statement: SQLiteStatement, _ argument: SQLValue, in context: QueueContext) throws -> [(id: QSAnyID, values: [SQLValue])]

    // MARK: Main actor

    /// Adds the children of a saved parent to the batch, once each.
    @MainActor func addChildren(_ children: any RelatedChildren, to batch: inout SaveBatch, registry: TypeRegistry) throws

    /// The main actor's table keeps the instances at `positions` of `instances`, saved with the
    /// uniqueIDs at the same positions of `ids`, marked with the save's `stamp` when it has one.
    @MainActor func keepSavedInstances(_ instances: [Instance?], ids: [QSAnyID], at positions: [Int], stamp: UInt64?)

    /// Whether an instance with this uniqueID is cached or alive.
    @MainActor func hasCachedInstance(_ id: QSAnyID) -> Bool

    /// Makes cached instances reflect new column values. Returns the IDs patched.
    @discardableResult
    @MainActor func patchCachedInstances(ids: [QSAnyID], with columns: [String: SQLValue], timing: PatchTiming) throws -> [QSAnyID]

    /// Notes, for the write timings, that the instances for `ids` took a write's values of
    /// `columns`: once all of them have (see ``TypeBinding/notePatched(_:columns:timing:)``).
    @MainActor func notePatched(_ ids: [QSAnyID], columns: [String], timing: PatchTiming)

    /// What the cached instances among `ids` hold now in `columns`, for ``putBack(_:)``.
    @MainActor func heldValues(ids: [QSAnyID], columns: [String]) -> [(id: QSAnyID, values: [String: SQLValue]?)]

    /// Gives cached instances back the values ``heldValues(ids:columns:)`` read.
    @MainActor func putBack(_ held: [(id: QSAnyID, values: [String: SQLValue]?)])

    /// Forgets the cached instances of rows that stay, so the next fetch reads them afresh. After
    /// the commit of the write `stamp`, instances the app saved through a later write stay.
    @MainActor func evict(_ ids: [QSAnyID], afterCommitOf stamp: UInt64?)

    /// Forgets the instances of deleted rows. After the commit of the write `stamp`, instances the
    /// app saved again through a later write stay.
    @MainActor func evictDeleted(_ ids: [QSAnyID], afterCommitOf stamp: UInt64?)

    /// Forgets the instances of rows about to be deleted, and returns what puts them back.
    @MainActor func evictKeepingInstances(_ ids: [QSAnyID]) -> @MainActor @Sendable () -> Void

    /// Makes cached instances that list any of `ids` in `relationship` drop them, keeping the
    /// order of the rest. Returns the IDs of the instances changed.
    @MainActor func dropChildren(_ ids: Set<QSAnyID>, from relationship: String, timing: PatchTiming) -> [QSAnyID]

    /// Whether an instance the store holds for one of `ids` lists children in `relationship`
    /// other than those in `deletedToo`.
    @MainActor func cachedInstanceListsChildren(ids: [QSAnyID], in relationship: String, besides deletedToo: Set<QSAnyID>) throws -> Bool

    /// Keeps instances a fetch on the queue made, for `ids`, hashed as `hashes` (see ``IDHashing``).
    @MainActor func keepFetched(ids: [QSAnyID], hashes: [UInt64], instances: [Instance])

    /// What the main actor's table of instances noted for the queue's (see ``ObjectCache``).
    @MainActor func takeKnownRowsNotes() -> KnownRowsNotes?

    /// Every write has settled: forgets which columns bulk updates by uniqueIDs set, and which
    /// saves gave held instances their values (see ``ObjectCache/forgetWriteTimings()``).
    @MainActor func forgetWriteTimings()

    /// Notes the columns the instances of `ids` marked for the save `stamp` (see
    /// ``ObjectCache/noteMarkedInFlight(_:of:stamp:)``).
    @MainActor func noteMarkedInFlight(_ columns: [[Int]], of ids: [QSAnyID], stamp: UInt64)

    /// The save `stamp` ended (see ``ObjectCache/forgetMarkedInFlight(upTo:)``).
    @MainActor func forgetMarkedInFlight(upTo stamp: UInt64)

    /// The instances held for `ids`, in order (nil where none is): asked by a read on a reader
    /// connection (see ``HeldOnMainActor``).
    @MainActor func heldInstances(for ids: [QSAnyID]) -> [Instance?]

    /// Gives `object`, an instance of the type, back the change marks a save took from it and
    /// could not hand over (see ``SaveBatch/putBackTakenMarks()``).
    @MainActor func putBackMarks(_ marks: QSChangedProperties, on object: AnyObject)

    /// Whether a live instance other than `instance` is held for `id` (always false for a value
    /// type, whose copies are not told apart).
    @MainActor func holdsAnother(than instance: Instance, for id: QSAnyID) -> Bool

    /// Keeps instances a read on a reader connection made, for rows none is held for.
    @MainActor func keepRead(ids: [QSAnyID], instances: [Instance])

    /// The number of instances the cache holds alive.
    @MainActor var cachedInstanceCount: Int { get }
}

extension AnyTypeBinding {
    /// Whether the type keeps instances at all (uniqued classes and permanent caches do).
    var cachesInstances: Bool { cachePolicy != .none }
}

final class TypeBinding<Object: QSDataObject>: AnyTypeBinding, @unchecked Sendable {
    let description: QSObjectDescription
    let layout: RowLayout
    let sql: TableSQL
    let cache: ObjectCache<Object>
    /// `update(from:)` of the type, when it is a ``QSUpdatableObject``: its conformance is found
    /// once here rather than by a dynamic cast for every instance patched.
    let updateInPlace: ((Object, QSRow) throws -> Void)?
    /// `update(column:from:)` of the type for each column named, when it is a
    /// ``QSUpdatableObject``; false at the first column it doesn't set alone. It takes the instance
    /// as the reference it is: patching 10,000 instances makes no typed copy of each.
    let updateColumnsInPlace: ((AnyObject, [String], QSRow) throws -> Bool)?
    /// How to read and set the change marks of a type that keeps instances and records what it
    /// set (see ``QSChangeTrackingObject``); nil for any other type.
    let changeMarks: ChangeMarks?
    let tableFacts = TableFacts()
    /// What a save of one object of the type is called: made once, not for each of a batch's
    /// many single saves.
    private let saveOneOperation: String

    init(description: QSObjectDescription) {
        self.description = description
        saveOneOperation = Self.saveOperation(count: 1, typeName: description.name)
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
        if let tracking = Object.self as? any QSChangeTrackingObject.Type, cache.policy != .none {
            changeMarks = ChangeMarks(for: tracking)
        } else {
            changeMarks = nil
        }
        if let updatable = Object.self as? any QSUpdatableObject.Type {
            updateInPlace = Self.updater(for: updatable, keeping: changeMarks)
            updateColumnsInPlace = Self.columnUpdater(for: updatable, keeping: changeMarks)
        } else {
            updateInPlace = nil
            updateColumnsInPlace = nil
        }
    }

    /// Calls `update(from:)` on instances of `Object`, which is `Updatable` (a class). The store
    /// calls it to show what the row holds, which is no change of the app's: an instance that
    /// records its changes keeps the marks it had before the call.
    private static func updater<Updatable: QSUpdatableObject>(
        for _: Updatable.Type, keeping marks: ChangeMarks?
    ) -> (Object, QSRow) throws -> Void {
        guard let marks else {
            return { object, row in try unsafeDowncast(Instance.reference(object), to: Updatable.self).update(from: row) }
        }
        return { object, row in
            let reference = Instance.reference(object)
            let kept = marks.read(reference)
            defer { marks.set(kept, reference) }
            try unsafeDowncast(reference, to: Updatable.self).update(from: row)
        }
    }

    /// Calls `update(column:from:)` for each column named, as ``updater(for:keeping:)`` calls
    /// `update(from:)`; stops with false at the first column the type doesn't set alone.
    private static func columnUpdater<Updatable: QSUpdatableObject>(
        for _: Updatable.Type, keeping marks: ChangeMarks?
    ) -> (AnyObject, [String], QSRow) throws -> Bool {
        guard let marks else {
            return { reference, names, row in try update(unsafeDowncast(reference, to: Updatable.self), columns: names, from: row) }
        }
        return { reference, names, row in
            let kept = marks.read(reference)
            defer { marks.set(kept, reference) }
            return try update(unsafeDowncast(reference, to: Updatable.self), columns: names, from: row)
        }
    }

    private static func update<Updatable: QSUpdatableObject>(_ object: Updatable, columns names: [String], from row: QSRow) throws -> Bool {
        for name in names {
            guard try object.update(column: name, from: row) else { return false }
        }
        return true
    }

    var tracksChanges: Bool { changeMarks != nil }

    @MainActor func putBackMarks(_ marks: QSChangedProperties, on object: AnyObject) {
        guard let changeMarks else { return }
        var merged = changeMarks.read(object)
        merged.formUnion(marks)
        changeMarks.set(merged, object)
    }

    var cachePolicy: InstanceTable.Policy { cache.policy }

    @MainActor var cachedInstanceCount: Int { cache.count }

    @MainActor func evict(_ ids: [QSAnyID], afterCommitOf stamp: UInt64?) {
        cache.removeKeepingRows(evictable(ids, afterCommitOf: stamp))
    }

    @MainActor func evictDeleted(_ ids: [QSAnyID], afterCommitOf stamp: UInt64?) {
        cache.removeDeleted(evictable(ids, afterCommitOf: stamp))
    }

    /// Those of `ids` whose instances may go after the commit of `stamp`.
    @MainActor private func evictable(_ ids: [QSAnyID], afterCommitOf stamp: UInt64?) -> [QSAnyID] {
        guard let stamp else { return ids }
        let timing = PatchTiming.afterCommit(of: stamp)
        return ids.filter { !timing.skips($0, in: cache) }
    }

    @MainActor func keepFetched(ids: [QSAnyID], hashes: [UInt64], instances: [Instance]) {
        cache.insertFetched(ids: ids, hashes: hashes, instances: instances)
    }

    @MainActor func takeKnownRowsNotes() -> KnownRowsNotes? {
        cache.takeNotes()
    }

    @MainActor func noteMarkedInFlight(_ columns: [[Int]], of ids: [QSAnyID], stamp: UInt64) {
        for (id, marked) in zip(ids, columns) where !marked.isEmpty {
            cache.noteMarkedInFlight(marked, of: id, stamp: stamp)
        }
    }

    @MainActor func forgetMarkedInFlight(upTo stamp: UInt64) {
        cache.forgetMarkedInFlight(upTo: stamp)
    }

    @MainActor func forgetWriteTimings() {
        cache.forgetWriteTimings()
    }

    @MainActor func heldInstances(for ids: [QSAnyID]) -> [Instance?] {
        cache.heldInstances(for: ids)
    }

    @MainActor func holdsAnother(than instance: Instance, for id: QSAnyID) -> Bool {
        guard Object.self is AnyObject.Type, let held = cache.object(forAnyID: id) else { return false }
        return Instance.reference(held) !== instance.object
    }

    @MainActor func keepRead(ids: [QSAnyID], instances: [Instance]) {
        cache.insertRead(ids: ids, instances: instances)
    }
}

extension TypeBinding {
    /// What a save of `count` objects of the type is called (see ``QSWrite/operation``), such as
    /// `save 3 VSNote`.
    func saveOperation(count: Int) -> String {
        count == 1 ? saveOneOperation : Self.saveOperation(count: count, typeName: description.name)
    }

    private static func saveOperation(count: Int, typeName: String) -> String {
        "save \(count) \(typeName)"
    }
}
