/// The rows one save writes, grouped by type: each object encoded once, children included.
struct SaveBatch {
    /// The encoded rows of one type, in the order they were encoded.
    struct Group {
        let binding: any AnyTypeBinding
        /// Reused for every object of the type, following the column order its saves learned.
        private var encoder: QSRowEncoder
        private(set) var ids: [QSAnyID] = []
        private(set) var rows: EncodedRows
        /// Per row, for a type that keeps instances, the instance saved, as the queue's table of
        /// instances keeps it (see ``KnownRows``); empty for a type that keeps none.
        private(set) var instances: [Instance?] = []
        /// Per row, for a type that keeps no instances, whether it was reached only through a
        /// parent's relationship (not saved itself); empty for a type that keeps instances.
        private(set) var reachedThroughParent: [Bool] = []
        /// Per row, for a type whose instances record what they set (see
        /// ``QSChangeTrackingObject``), the positions of the columns its object marked; empty
        /// for any other type.
        private(set) var markedColumns: [[Int]] = []
        /// The uniqueIDs of the children of the type encoded so far in the save, chunks before
        /// included: a child shared by many parents (a tag on every note) is encoded once.
        var claimedChildren = IDSet()

        /// How many of the rows, from the first, the main actor's table was given the instances
        /// of (see ``keepEncodedInstances(stamp:)``).
        private var rowsKept = 0

        private let keepsInstances: Bool
        private let tracksChanges: Bool

        init(binding: any AnyTypeBinding) {
            self.binding = binding
            keepsInstances = binding.cachesInstances
            tracksChanges = binding.tracksChanges
            rows = EncodedRows(width: binding.layout.count, relationshipCount: binding.description.relationships.count)
            encoder = QSRowEncoder(layout: binding.layout)
            encoder.followSavedWriteOrder()
        }

        /// Encodes the columns of `object` with the group's encoder, for ``takeEncodedValues()``.
        mutating func encode(_ object: inout some QSDataObject) {
            encoder.makeReadyForNextObject()
            object.encode(to: &encoder)
        }

        /// Takes the values of the object just encoded, for the row ``append(_:throughParent:markedColumns:)``
        /// adds next; returns the relationships it set.
        mutating func takeEncodedValues() throws -> EncodedRelationships {
            try rows.appendValues(of: &encoder)
        }

        /// Adds a row, of an object saved itself or of a child reached through a parent, with the
        /// values taken last (see ``takeEncodedValues()``) and the columns its object marked when
        /// the type records them; returns its position. Its relationships' children are set
        /// after, by ``setLookup(_:at:ofRow:)``.
        mutating func append(_ id: QSAnyID, throughParent: Bool, markedColumns marked: [Int]) -> Int {
            ids.append(id)
            rows.endRow()
            if keepsInstances {
                instances.append(nil)
            } else {
                reachedThroughParent.append(throughParent)
            }
            if tracksChanges { markedColumns.append(marked) }
            return ids.count - 1
        }

        /// Sets the children the object of the row at `row` set for the relationship at `position`.
        mutating func setLookup(_ lookup: LookupSnapshot, at position: Int, ofRow row: Int) {
            rows.setLookup(lookup, at: position, ofRow: row)
        }

        /// Adds the row of `instance`, held for it and marking nothing, without its values: the
        /// queue keeps the instance and writes nothing for it.
        mutating func appendUnchanged(_ id: QSAnyID, instance: Instance) {
            ids.append(id)
            rows.appendUnencoded()
            instances.append(instance)
            markedColumns.append([])
        }

        /// Makes room for `count` more rows, so that encoding many objects never stops to grow
        /// the lists (each growth copies every ID and row so far, through unspecialised code).
        mutating func reserveCapacity(adding count: Int) {
            guard let capacity = capacityToReserve(count: ids.count, adding: count, capacity: ids.capacity) else { return }
            ids.reserveCapacity(capacity)
            rows.reserveCapacity(rows: capacity)
            if keepsInstances {
                instances.reserveCapacity(capacity)
            } else {
                reachedThroughParent.reserveCapacity(capacity)
            }
            if tracksChanges { markedColumns.reserveCapacity(capacity) }
        }

        /// Sets the instance of the row at `position`, which the queue's table is to keep.
        mutating func setInstance(_ instance: consuming Instance, at position: Int) {
            instances[position] = instance
        }

        /// The main actor's table keeps the instances of the rows encoded since the last call,
        /// marked with `stamp`. A row left unencoded is the very instance the table holds already.
        @MainActor mutating func keepEncodedInstances(stamp: UInt64?) {
            defer { rowsKept = ids.count }
            guard keepsInstances, rowsKept < ids.count else { return }
            var positions: [Int] = []
            positions.reserveCapacity(ids.count - rowsKept)
            for row in rowsKept ..< ids.count where !rows.isUnencoded(row) {
                positions.append(row)
            }
            guard !positions.isEmpty else { return }
            binding.keepSavedInstances(instances, ids: ids, at: positions, stamp: stamp)
        }

        /// The rows so far, ready to travel to the database queue.
        func finished(outsideReadsMerged: UInt64) -> SaveGroup {
            SaveGroup(
                // Whether an ID comes twice: an object listed twice, or saved both itself and as
                // the child of another. Looked for once, over the finished list.
                binding: binding, ids: ids, rows: rows, repeatsIDs: ids.repeatsAnID, reachedThroughParent: reachedThroughParent,
                markedColumns: markedColumns, instances: ObjectsInTransit(value: instances), outsideReadsMerged: outsideReadsMerged)
        }

        /// Forgets the rows handed over.
        mutating func removeRows() {
            rowsKept = 0
            ids = []
            rows.removeAll()
            instances = []
            reachedThroughParent = []
            markedColumns = []
        }
    }

    /// Change marks taken from an instance while encoding it (see ``QSChangeTrackingObject``).
    private struct TakenMarks {
        let binding: any AnyTypeBinding
        let object: AnyObject
        let marks: QSChangedProperties
    }

    var groups: [Group] = []
    /// The ``WriteStamp`` of the save being encoded: the instances it caches are marked with it,
    /// even when a large save encodes them turns later, after other writes took stamps of their own.
    let stamp: UInt64
    /// Whether a held instance that marked nothing is left unencoded, and its row unwritten.
    ///
    /// True when the save began with every earlier write settled on the main actor (committed,
    /// or rolled back and its instances restored) and outside a batch: then every instance the
    /// main actor holds shows what the database holds of its row, but for the properties it
    /// marked since (another writer's change to the row is merged into it the same way, marks
    /// kept). Only for a type that records what it sets, has no relationships (whose children
    /// a save must still compare) and shares its table with no other type that keeps instances
    /// (which a save patches).
    let skipsUnchanged: Bool

    /// The stamp the instances this save caches are marked with: none when the save began with
    /// every earlier write settled, since then no patch or restore from an earlier write can come
    /// after it (see ``ObjectCache/markValuesSaved(_:stamp:)``).
    var stampToMark: UInt64? { skipsUnchanged ? nil : stamp }

    /// How many reads of other writers' changes the main actor had merged when the save began
    /// (see ``ReplacedSnapshots``).
    let outsideReadsMerged: UInt64

    init(stamp: UInt64, skipsUnchanged: Bool, outsideReadsMerged: UInt64) {
        self.stamp = stamp
        self.skipsUnchanged = skipsUnchanged
        self.outsideReadsMerged = outsideReadsMerged
    }
    /// The change marks taken from instances since the rows were last handed over: given back
    /// if encoding fails before they are, so that no change the app made goes unsaved.
    private var takenMarks: [TakenMarks] = []

    /// Notes that encoding took `marks` from `object`, an instance of `binding`'s type.
    mutating func noteTaken(_ marks: QSChangedProperties, from object: AnyObject, of binding: any AnyTypeBinding) {
        guard !marks.isEmpty else { return }
        takenMarks.append(TakenMarks(binding: binding, object: object, marks: marks))
    }

    /// The rows were handed over: the marks taken are theirs to write from now on.
    mutating func handedOver() {
        takenMarks = []
    }

    /// Encoding failed before the rows were handed over: gives every instance back the marks
    /// taken from it.
    @MainActor mutating func putBackTakenMarks() {
        for taken in takenMarks { taken.binding.putBackMarks(taken.marks, on: taken.object) }
        takenMarks = []
    }

    /// Children reached through a parent's relationship, waiting to be encoded.
    struct PendingChildren {
        let binding: any AnyTypeBinding
        let children: any RelatedChildren
    }

    /// The children encoded objects listed, oldest first, not yet encoded themselves. A save
    /// encodes them after the objects it was given, level after level, rather than each within
    /// its parent's encoding: a chain of relationships thousands of levels deep (each step
    /// listing the next) then needs no more stack than one level deep.
    private var pendingChildren: [PendingChildren] = []
    private var nextPendingChildren = 0

    /// Adds `children`, of `binding`'s type, to those waiting to be encoded.
    mutating func addPendingChildren(_ children: any RelatedChildren, of binding: any AnyTypeBinding) {
        pendingChildren.append(PendingChildren(binding: binding, children: children))
    }

    /// The oldest children waiting to be encoded, taken from the waiting list; nil when none waits.
    mutating func takePendingChildren() -> PendingChildren? {
        guard nextPendingChildren < pendingChildren.count else {
            pendingChildren.removeAll(keepingCapacity: true)
            nextPendingChildren = 0
            return nil
        }
        defer { nextPendingChildren += 1 }
        return pendingChildren[nextPendingChildren]
    }

    /// The main actor's tables keep the instances of the rows encoded since the last call.
    @MainActor mutating func keepEncodedInstances() {
        for index in groups.indices {
            groups[index].keepEncodedInstances(stamp: stampToMark)
        }
    }

    /// The position in ``groups`` of the group for `binding`, created when missing. Looked for
    /// once per list of objects or children encoded, among the few types one save touches: a
    /// search of the list, with no table to allocate for each save.
    mutating func groupIndex(for binding: any AnyTypeBinding) -> Int {
        // By index: `firstIndex(where:)` copied each group to hand it to the closure.
        for index in groups.indices where groups[index].binding === binding { return index }
        groups.append(Group(binding: binding))
        return groups.count - 1
    }

    /// Whether a related object still needs encoding; true once per (type, uniqueID): `group`
    /// is its type's (see ``groupIndex(for:)``). Children shared by many parents (a tag on every
    /// note) are written once per save.
    @discardableResult
    mutating func claimChild(inGroup group: Int, id: QSAnyID) -> Bool {
        groups[group].claimedChildren.insert(id)
    }

    /// Makes room in the sets of written children for a save of `total` objects, extrapolating
    /// from the first `encoded` ones.
    mutating func reserveChildCapacity(forObjects total: Int, afterEncoding encoded: Int) {
        guard encoded > 0 else { return }
        for index in groups.indices {
            let claimed = groups[index].claimedChildren.count
            guard claimed > 0 else { continue }
            let estimate = claimed * total / encoded
            groups[index].claimedChildren.reserveCapacity(adding: max(0, estimate + estimate / 8 - claimed))
        }
    }

    /// The finished rows, ready to travel to the database queue.
    var finished: [SaveGroup] {
        groups.map { $0.finished(outsideReadsMerged: outsideReadsMerged) }
    }

    /// Forgets the rows encoded so far (once ``finished`` handed them over), remembering which
    /// children were already written, so a save in several chunks still writes each shared child
    /// once.
    mutating func startNextChunk() {
        for index in groups.indices {
            groups[index].removeRows()
        }
    }
}

/// One type's rows as they will be written: Sendable, so they can travel to the queue.
struct SaveGroup: Sendable {
    let binding: any AnyTypeBinding
    let ids: [QSAnyID]
    /// Per row, what it will hold as far as its object says: its columns, and the children of
    /// each relationship it set.
    let rows: EncodedRows
    /// Whether an ID comes more than once in `ids`.
    let repeatsIDs: Bool
    /// Per row, for a type that keeps no instances, whether the row is a child reached through a
    /// parent's relationship, not an object saved itself: such a row is only inserted when it
    /// doesn't exist, never updated, since the parent may hold an older copy of the child.
    /// Empty for a type that keeps instances (the app holds the store's own instance).
    let reachedThroughParent: [Bool]
    /// Per row, for a type whose instances record what they set, the positions of the columns
    /// its object marked (see ``QSChangeTrackingObject``); empty for any other type.
    let markedColumns: [[Int]]
    /// Per row, for a type that keeps instances, the instance saved (see ``SaveBatch/Group``).
    private let transit: ObjectsInTransit<[Instance?]>
    /// How many reads of other writers' changes the main actor had merged when the save began:
    /// a row a later read changed is compared with what it held before (see ``ReplacedSnapshots``).
    let outsideReadsMerged: UInt64

    init(
        binding: any AnyTypeBinding, ids: [QSAnyID], rows: EncodedRows, repeatsIDs: Bool, reachedThroughParent: [Bool],
        markedColumns: [[Int]], instances: ObjectsInTransit<[Instance?]>, outsideReadsMerged: UInt64
    ) {
        self.outsideReadsMerged = outsideReadsMerged
        self.binding = binding
        self.ids = ids
        self.rows = rows
        self.repeatsIDs = repeatsIDs
        self.reachedThroughParent = reachedThroughParent
        self.markedColumns = markedColumns
        transit = instances
    }

    /// Whether the row at `offset` is a held instance that marked nothing, left unencoded: nothing
    /// is written for it (see ``SaveBatch/skipsUnchanged``).
    func isUnchanged(_ offset: Int) -> Bool {
        rows.isUnencoded(offset)
    }

    /// Whether the row at `offset` is a value-type child reached through a parent.
    func isReachedThroughParent(_ offset: Int) -> Bool {
        offset < reachedThroughParent.count && reachedThroughParent[offset]
    }

    var instances: [Instance?] { transit.value }
}
