import Foundation

/// The instances of one type the store keeps: weakly for uniqued classes, strongly when the
/// model says `cachePermanently`. Shared by the main actor and the database queue, so it locks.
///
/// A typed front for an ``InstanceTable``: the table is not generic, so that its dictionaries are
/// compiled for their concrete types. (A binding is made from a metatype the app registers, so
/// generic code in it runs unspecialised and would look up the metadata of every dictionary and
/// optional it touches at run time, once per call: that was most of a fetch's cost.)
final class ObjectCache<Object: QSDataObject>: @unchecked Sendable {
    typealias Policy = InstanceTable.Policy

    let policy: Policy
    private let table: InstanceTable

    init(policy: Policy) {
        self.policy = policy
        table = InstanceTable(policy: policy)
    }

    /// Counts the instances the app put in (by saving them), so a fetch can tell cheaply
    /// whether the app may have saved an instance while the fetch was running.
    var appInsertions: Int { table.appInsertions }

    /// The cached instance for `id`, if one is alive.
    func object(for id: Object.UniqueID) -> Object? {
        switch policy {
        case .none: return nil
        case .weak: return table.weakObject(for: id.anyID).map(Self.typedReference)
        case .strong: return table.object(for: id.anyID).map(Self.typed)
        }
    }

    /// The cached instances for `ids`, in order (nil where none is alive), and the IDs that have
    /// none, taking the lock once.
    func objects(for ids: [QSAnyID]) -> (found: [Object?], missing: [QSAnyID]) {
        switch policy {
        case .none:
            return (Array(repeating: nil, count: ids.count), ids)
        case .weak:
            let found = table.weakObjects(for: ids)
            return (found.map { $0.map(Self.typedReference) }, Self.ids(ids, missingFrom: found))
        case .strong:
            let found = table.objects(for: ids)
            return (found.map { $0.map(Self.typed) }, Self.ids(ids, missingFrom: found))
        }
    }

    /// The IDs of `ids` for which `found` has nil.
    private static func ids<Found>(_ ids: [QSAnyID], missingFrom found: [Found?]) -> [QSAnyID] {
        zip(ids, found).compactMap { id, object in object == nil ? id : nil }
    }

    /// Keeps `object` under its uniqueID, replacing any other instance. A `snapshot` replaces the
    /// one kept for the uniqueID; without one, the kept snapshot stays (it describes the row, not
    /// the instance).
    func insert(_ object: Object, snapshot: RowSnapshot? = nil) {
        insert(object, snapshot: snapshot, fromApp: false)
    }

    /// What a fetch needs to know of a row it read: the instance alive for it, or, when there is
    /// none, whether the snapshot kept from a dead one still says what the row holds in `epoch`
    /// (see ``SnapshotTrust``), so that the new instance can keep it.
    func object(for id: Object.UniqueID, keptSnapshotIn epoch: UInt64) -> (object: Object?, keepsSnapshot: Bool) {
        guard policy == .weak else { return (object(for: id), false) }
        let found = table.weakObjectOrKeptSnapshot(for: id.anyID, epoch: epoch)
        return (found.object.map(Self.typedReference), found.keepsSnapshot)
    }

    /// Keeps `object`, a new instance of a row whose instance died, with the dead one's snapshot;
    /// only when ``object(for:keptSnapshotIn:)`` said it can.
    func insertKeepingSnapshot(_ object: Object) {
        guard policy == .weak else { return }
        // Inserted without a snapshot, the new instance keeps the one its entry holds.
        table.insert(weak: Self.reference(object), id: object.uniqueID.anyID, snapshot: nil, fromApp: false)
    }

    /// Keeps the instances at `indexes` of `objects`, which the app saved, replacing any others
    /// with their uniqueIDs, taking the lock once (the database queue takes it too, while it
    /// writes the saves before). Returns, for each, whether the cache had no entry for its
    /// uniqueID, and so holds no snapshot.
    ///
    /// It reads `objects` by index and makes no array of `Object`: in this unspecialised code,
    /// each such array (and each `map` or `for`-`in` over one) looks up generic metadata at run
    /// time, which cost more than the insertions when a save passes one child at a time.
    func insertFromApp(_ objects: [Object], at indexes: [Int]) -> [Bool] {
        switch policy {
        case .none:
            return Array(filledWith: true, count: indexes.count)
        case .weak:
            return table.insertFromApp(count: indexes.count) { k in
                let object = objects[indexes[k]]
                return .init(id: object.uniqueID.anyID, strong: nil, weak: Self.reference(object))
            }
        case .strong:
            return table.insertFromApp(count: indexes.count) { k in
                let object = objects[indexes[k]]
                return .init(id: object.uniqueID.anyID, strong: object, weak: nil)
            }
        }
    }

    private func insert(_ object: Object, snapshot: RowSnapshot?, fromApp: Bool) {
        let id = object.uniqueID.anyID
        switch policy {
        case .none: return
        case .weak: table.insert(weak: Self.reference(object), id: id, snapshot: snapshot, fromApp: fromApp)
        case .strong: table.insert(strong: object, id: id, snapshot: snapshot, fromApp: fromApp)
        }
    }

    /// The snapshots of `ids`, in order (nil where none is kept), taking the lock once; those
    /// `isKnownMissing` marks are not looked for.
    func snapshots(for ids: [QSAnyID], isKnownMissing: [Bool]) -> [RowSnapshot?] {
        guard policy != .none else { return Array(repeating: nil, count: ids.count) }
        return table.snapshots(for: ids, isKnownMissing: isKnownMissing)
    }

    /// Records what the database now holds for these rows, where an instance is kept for them
    /// (nil forgets it), taking the lock once.
    func setSnapshots(_ updates: consuming [(id: QSAnyID, snapshot: RowSnapshot?)]) {
        guard policy != .none else { return }
        table.setSnapshots(consume updates)
    }

    /// Changes the snapshots' values at `columns` (positions in the layout) for `ids`.
    func patchSnapshots(_ ids: some Sequence<QSAnyID>, columns: [(index: Int, value: SQLValue)]) {
        guard policy != .none else { return }
        table.patchSnapshots(Array(ids), columns: columns)
    }

    /// Makes room for `count` more instances, so a large save does not stop to grow the table.
    func reserveCapacity(adding count: Int) {
        guard policy != .none else { return }
        table.reserveCapacity(adding: count)
    }

    /// Records that the instance for `id` holds the column values of the app's latest save.
    func markValuesSaved(_ id: Object.UniqueID) {
        guard policy != .none else { return }
        table.markValuesSaved(id.anyID)
    }

    /// Whether the instance for `id` holds the column values (or, with `relationships`, the
    /// relationships) of a save later than `stamp`.
    func savedByApp(_ id: Object.UniqueID, after stamp: UInt64, relationships: Bool) -> Bool {
        guard policy != .none else { return false }
        return table.savedByApp(id.anyID, after: stamp, relationships: relationships)
    }

    /// Forgets the instances for `ids`; returns those that were alive.
    @discardableResult
    func remove<IDs: Sequence>(_ ids: IDs) -> [Object] where IDs.Element == Object.UniqueID {
        remove(anyIDs: ids.map { $0.anyID })
    }

    /// Takes the instances for these uniqueIDs out of the cache, and returns them.
    @discardableResult
    func remove(anyIDs ids: [QSAnyID]) -> [Object] {
        guard policy != .none else { return [] }
        return table.remove(ids).map(Self.typed)
    }

    /// Every instance still alive.
    var allObjects: [Object] {
        table.allObjects.map(Self.typed)
    }

    /// The number of instances still alive; dead weak entries are dropped first.
    var count: Int { table.count }

    /// The table holds only instances of `Object`, put in by this front.
    private static func typed(_ instance: Any) -> Object {
        instance as! Object
    }

    // Weak entries exist only for classes (see `TypeBinding`), whose instances are references:
    // reinterpreting one costs nothing, where `as AnyObject` and `as!` would go through the
    // runtime's dynamic casts on every lookup.
    private static func reference(_ object: Object) -> AnyObject {
        unsafeBitCast(object, to: AnyObject.self)
    }

    private static func typedReference(_ reference: AnyObject) -> Object {
        unsafeBitCast(reference, to: Object.self)
    }
}
