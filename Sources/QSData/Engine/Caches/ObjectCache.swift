/// The instances of one type the main actor holds: weakly for uniqued classes, strongly when the
/// model says `cachePermanently`.
///
/// A typed front for an ``InstanceTable``: the table is not generic, so that its storage is
/// compiled for concrete types. (A binding is made from a metatype the app registers, so generic
/// code in it runs unspecialised and would look up the metadata of every collection and optional
/// it touches at run time, once per call: that was most of a fetch's cost.)
///
/// The database queue keeps its own table of the same instances (``KnownRows``), so that a fetch
/// hands out the instance the app holds. Where the main actor changes which instance stands for a
/// row other than by saving it (a value replaced when patched, an instance forgotten because it
/// could not take new values), the cache notes it here, and the note reaches the queue ahead of
/// the next work handed to it (see ``QueueEntrance``).
@MainActor
final class ObjectCache<Object: QSDataObject> {
    typealias Policy = InstanceTable.Policy

    nonisolated let policy: Policy
    private let table: InstanceTable
    // Touched for every row or instance, by one thread, one access at a time: unchecked, since
    // Swift's dynamic exclusivity check cost more than most of the accesses.
    /// What the queue's table must hear of before the next work reaches it.
    @exclusivity(unchecked) private var notes = KnownRowsNotes()
    /// The columns of held instances that bulk updates by uniqueIDs set in memory while an earlier
    /// write was unsettled, each with the stamp of the last update to set it: that write's patch or
    /// restore, reaching the main actor after them, leaves those columns as they are. Emptied
    /// whenever every write has settled (no such patch is left to come).
    @exclusivity(unchecked) private var columnsSetByID: [ColumnOfRow: UInt64] = [:]
    /// The columns held instances marked and handed to saves that have not committed yet.
    @exclusivity(unchecked) private var columnsMarkedInFlight = ColumnsMarkedInFlight()

    private struct ColumnOfRow: Hashable {
        let id: QSAnyID
        /// A position in the layout.
        let column: Int
    }

    nonisolated init(policy: Policy) {
        self.policy = policy
        table = InstanceTable(policy: policy)
    }

    /// Counts the instances put in other than from a fetch's report, so a fetch can tell cheaply
    /// whether the app may have saved an instance while the fetch was running.
    var outsideInsertions: Int { table.outsideInsertions }

    /// The cached instance for `id`, if one is alive.
    func object(for id: Object.UniqueID) -> Object? {
        object(forAnyID: id.anyID)
    }

    func object(forAnyID id: QSAnyID) -> Object? {
        switch policy {
        case .none: return nil
        case .weak:
            guard let reference = table.weakObject(for: id) else { return nil }
            return Instance.typedReference(reference, as: Object.self)
        case .strong:
            guard let instance = table.object(for: id) else { return nil }
            return Instance.typed(instance, as: Object.self)
        }
    }

    /// The instance held for `id`, if one is alive, as a reference: for a class, whose instances
    /// are references, a look-up that makes no typed ID and no typed copy.
    func reference(forAnyID id: QSAnyID) -> AnyObject? {
        switch policy {
        case .none: return nil
        case .weak: return table.weakObject(for: id)
        case .strong: return table.instance(for: id)?.object
        }
    }

    /// The instance held for `object`'s uniqueID, as the tables keep it, when it is `object`
    /// itself; nil otherwise.
    func heldInstance(of object: Object) -> Instance? {
        guard let held = table.instance(for: object.uniqueID.anyID), held.object === Instance.reference(object) else { return nil }
        return held
    }

    /// Keeps instances a fetch made (the queue's table has them already), for `ids`, hashed as
    /// `hashes` (see ``IDHashing``).
    func insertFetched(ids: [QSAnyID], hashes: [UInt64], instances: [Instance]) {
        guard policy != .none else { return }
        table.insertFetched(instances, ids: ids, hashes: hashes)
    }

    /// The instances held for `ids`, in order (nil where none is alive).
    func heldInstances(for ids: [QSAnyID]) -> [Instance?] {
        guard policy != .none else { return Array(repeating: nil, count: ids.count) }
        return ids.map { table.instance(for: $0) }
    }

    /// Keeps the instances a read on a reader connection made (none is alive for their rows; the
    /// queue's table hears of them through ``ReadAdoptions``).
    func insertRead(ids: [QSAnyID], instances: [Instance]) {
        guard policy != .none else { return }
        let hashing = IDHashing()
        table.insertFetched(instances, ids: ids, hashes: ids.map(hashing.hash(of:)))
    }

    /// Keeps `object` in place of the instance held for its uniqueID (a value patched by
    /// replacing it, or an instance put back), and tells the queue.
    func insertReplacing(_ object: Object) {
        guard let instance = Instance.of(object, policy: policy) else { return }
        let id = object.uniqueID.anyID
        table.insert(instance, id: id)
        notes.adopt(instance, id: id)
    }

    /// Keeps an instance the main actor put aside and puts back (a rolled-back delete): the
    /// queue's table never let it go.
    func insertPutBack(_ object: Object) {
        guard let instance = Instance.of(object, policy: policy) else { return }
        table.insert(instance, id: object.uniqueID.anyID)
    }

    /// How the tables keep `object`: nil for a type that keeps none. `inout` only so that the
    /// object is read where it lies, never written (see `TypeBinding.encode`).
    func instance(of object: inout Object) -> Instance? {
        Instance.of(object, policy: policy)
    }

    /// Keeps the instances at `positions` of `instances`, which the app saved, replacing any
    /// others with their uniqueIDs (those at the same positions of `ids`), and notes the save's
    /// `stamp` beside them when it has one (a save made while an earlier write is unsettled: see
    /// ``markValuesSaved(_:stamp:)``).
    func insertFromApp(_ instances: [Instance?], ids: [QSAnyID], at positions: [Int], stamp: UInt64?) {
        table.insertFromApp(instances, ids: ids, at: positions, stamp: stamp)
    }

    /// Makes room for `count` more instances, so a large save does not stop to grow the table.
    func reserveCapacity(adding count: Int) {
        guard policy != .none else { return }
        table.reserveCapacity(adding: count)
    }

    /// Records that the instance for `id` holds the column values of the app's save `stamp`, made
    /// while an earlier write was unsettled: that write's patch or restore, reaching the main
    /// actor after the save, leaves those values alone.
    func markValuesSaved(_ id: QSAnyID, stamp: UInt64) {
        guard policy != .none else { return }
        table.markValuesSaved(id, stamp: stamp)
    }

    /// Whether the instance for `id` holds the column values (or, with `relationships`, the
    /// relationships) of a save later than `stamp`.
    func savedByApp(_ id: QSAnyID, after stamp: UInt64, relationships: Bool) -> Bool {
        guard policy != .none else { return false }
        return table.savedByApp(id, after: stamp, relationships: relationships)
    }

    /// Notes that a bulk update by uniqueIDs, `stamp`, set `columns` of the instance for `id`.
    func noteColumnsSetByID(_ columns: [Int], of id: QSAnyID, stamp: UInt64) {
        for column in columns { columnsSetByID[ColumnOfRow(id: id, column: column)] = stamp }
    }

    /// Whether a bulk update by uniqueIDs after `stamp` set `column` of the instance for `id`.
    func columnSetByID(_ column: Int, of id: QSAnyID, after stamp: UInt64) -> Bool {
        guard !columnsSetByID.isEmpty, let setAt = columnsSetByID[ColumnOfRow(id: id, column: column)] else { return false }
        return setAt > stamp
    }

    /// Notes that the save `stamp` took the marked `columns` of the instance for `id`.
    func noteMarkedInFlight(_ columns: [Int], of id: QSAnyID, stamp: UInt64) {
        columnsMarkedInFlight.note(columns, of: id, stamp: stamp)
    }

    /// The columns of the instance for `id` that saves not committed yet are writing.
    func columnsMarkedInFlight(of id: QSAnyID) -> [Int] {
        columnsMarkedInFlight.columns(of: id)
    }

    /// The save `stamp` committed: what it and earlier saves took is written. (What a save that
    /// rolled back took is forgotten once every write has settled.)
    func forgetMarkedInFlight(upTo stamp: UInt64) {
        columnsMarkedInFlight.forget(upTo: stamp)
    }

    /// Every write has settled: no earlier write's patch or restore is left to come, so neither
    /// the columns bulk updates set nor the stamps of saves are needed any more.
    func forgetWriteTimings() {
        if !columnsSetByID.isEmpty { columnsSetByID = [:] }
        if !columnsMarkedInFlight.isEmpty { columnsMarkedInFlight.removeAll() }
        table.forgetSaveStamps()
    }

    /// Forgets the instances for `ids` because the rows went (a delete, whose write tells the
    /// queue's table itself); returns those that were alive.
    @discardableResult
    func removeDeleted(_ ids: [QSAnyID]) -> [Object] {
        guard policy != .none else { return [] }
        return table.remove(ids).map { Instance.typed($0, as: Object.self) }
    }

    /// Forgets the instances for `ids` while their rows stay (an instance that could not take
    /// new values), and tells the queue, so that the next fetch reads the rows afresh.
    func removeKeepingRows(_ ids: [QSAnyID]) {
        guard policy != .none else { return }
        notes.forget(ids)
        _ = table.remove(ids)
    }

    /// Hands over what the queue's table must hear of, once: nil when nothing.
    func takeNotes() -> KnownRowsNotes? {
        guard !notes.isEmpty else { return nil }
        defer { notes = KnownRowsNotes() }
        return notes
    }

    /// Every instance still alive.
    var allObjects: [Object] {
        table.allObjects.map { Instance.typed($0, as: Object.self) }
    }

    /// Whether the main actor holds no instance of the type, without sweeping: true only when
    /// none was kept since the last sweep (an entry whose instance died still counts as one).
    var isEmpty: Bool { table.isEmpty }

    /// The number of instances still alive; dead weak entries are dropped first, here and (once
    /// the note reaches it) in the queue's table, with the snapshots they kept.
    var count: Int {
        if policy == .weak { notes.pruneDead() }
        return table.count
    }
}

/// What the main actor changed in its table of one type's instances that the queue's table
/// (``KnownRows``) must follow, in order: instances that now stand for their rows, and instances
/// let go.
struct KnownRowsNotes: @unchecked Sendable {
    // Unchecked: the instances are handed over, not shared: the queue only keeps them as
    // references to hand out again, and never reads or changes them.
    private enum Note {
        case adopt(QSAnyID, Instance)
        case forget([QSAnyID])
        case pruneDead
    }

    private var notes: [Note] = []

    var isEmpty: Bool { notes.isEmpty }

    mutating func adopt(_ instance: Instance, id: QSAnyID) {
        notes.append(.adopt(id, instance))
    }

    mutating func forget(_ ids: [QSAnyID]) {
        notes.append(.forget(ids))
    }

    mutating func pruneDead() {
        if case .pruneDead? = notes.last { return }
        notes.append(.pruneDead)
    }

    /// Database queue: makes `rows` follow, in the order the main actor made the changes.
    func apply(to rows: KnownRows) {
        for note in notes {
            switch note {
            case .adopt(let id, let instance): rows.insert(instance, id: id)
            case .forget(let ids): rows.remove(ids)
            case .pruneDead: rows.pruneDeadEntries()
            }
        }
    }
}
