/// Works out the fewest lookup rows to write to turn a parent's stored children into new ones.
///
/// Order values are integers with gaps between them (``gap`` apart when written afresh), so a
/// child inserted or moved between two others takes a value between theirs and no other row
/// changes. Children whose relative order is unchanged (the longest run of them, found in
/// O(n log n)) keep their rows. Only when two neighbours have no integer left between them
/// are the parent's rows written afresh.
struct LookupDiff {
    /// The distance between consecutive order values written afresh.
    static let gap: Int64 = 1 << 20
    /// Past this many moved rows, rewriting the parent's rows is cheaper than moving each.
    static let maximumMoves = 8

    /// What to write for one parent.
    enum Plan: Equatable {
        case unchanged
        /// Insert every row of `result`: the parent had none.
        case insertAll
        /// Delete these children's rows, insert these, and give these existing rows a new order value.
        case edit(deletes: [QSAnyID], inserts: [Row], moves: [Row])
        /// Delete these children's rows and insert `result`'s rows at `inserted`: children added
        /// in one place, or removed from one, the usual edits. No row moves.
        case editInOnePlace(deletes: [QSAnyID], inserted: Range<Int>)
        /// Delete every row of the parent and insert `result`'s.
        case rewrite
    }

    struct Row: Equatable {
        let child: QSAnyID
        let index: Int64
    }

    let plan: Plan
    /// The parent's lookup rows once the plan is carried out.
    let result: LookupSnapshot

    /// The rows of a parent that has none yet.
    static func fresh(_ children: ChildIDs) -> LookupSnapshot {
        let indexes = children.count <= freshIndexes.count
            ? freshIndexes[..<children.count]
            : children.indices.map(freshIndex(at:))[...]
        return LookupSnapshot(childIDs: children, indexes: indexes)
    }

    /// The order value of the child at `offset` among a parent's rows written afresh.
    static func freshIndex(at offset: Int) -> Int64 {
        Int64(offset) * gap
    }

    /// The order values of a parent's first children written afresh, shared by every parent that
    /// has no more of them: a large save makes no array of order values per parent, and a parent
    /// of 1,000 children saved for one added makes none either (32 KiB, made once, on first use).
    private static let freshIndexes: [Int64] = (0..<4_096).map(freshIndex(at:))

    /// - Parameter new: the children wanted, each once; the result's rows share its storage.
    init(from old: LookupSnapshot, to new: ChildIDs) {
        if old.childIDs.isEmpty {
            // A new parent, the usual case of a large save: every row is an insert.
            self.init(plan: new.isEmpty ? .unchanged : .insertAll, result: Self.fresh(new))
            return
        }
        let plan: Outcome
        if case .integers(let oldIDs) = old.childIDs.storage, case .integers(let newIDs) = new.storage {
            plan = Self.plan(from: oldIDs, old.indexes, to: newIDs)
        } else {
            plan = Self.plan(from: old.childIDs.anyIDs, old.indexes, to: new.anyIDs)
        }
        switch plan {
        case .unchanged: self.init(plan: .unchanged, result: old)
        case .rewrite: self.init(plan: .rewrite, result: Self.fresh(new))
        case .edit(let deletes, let inserts, let moves, let indexes):
            self.init(plan: .edit(deletes: deletes, inserts: inserts, moves: moves), result: LookupSnapshot(childIDs: new, indexes: indexes[...]))
        case .editInOnePlace(let deletes, let inserted, let indexes):
            self.init(plan: .editInOnePlace(deletes: deletes, inserted: inserted), result: LookupSnapshot(childIDs: new, indexes: indexes[...]))
        }
    }

    private enum Outcome {
        case unchanged
        case rewrite
        case edit(deletes: [QSAnyID], inserts: [Row], moves: [Row], indexes: [Int64])
        case editInOnePlace(deletes: [QSAnyID], inserted: Range<Int>, indexes: [Int64])
    }

    /// Reads through buffers counting from 0 (the stored rows may be a slice of a larger list),
    /// rather than copies: a parent with many children is saved for one added, and each copy of
    /// its IDs cost a copy and a destruction of every one.
    private static func plan<ID: LookupChildID>(
        from oldIDs: ArraySlice<ID>, _ oldIndexes: ArraySlice<Int64>, to new: ArraySlice<ID>
    ) -> Outcome {
        oldIDs.withUnsafeBufferPointer { oldIDs in
            oldIndexes.withUnsafeBufferPointer { oldIndexes in
                new.withUnsafeBufferPointer { new in plan(from: oldIDs, oldIndexes, to: new) }
            }
        }
    }

    private static func plan<ID: LookupChildID>(
        from oldIDs: UnsafeBufferPointer<ID>, _ oldIndexes: UnsafeBufferPointer<Int64>, to new: UnsafeBufferPointer<ID>
    ) -> Outcome {
        // 1. The unchanged ends: most edits touch a few children in the middle, and saving a
        // parent whose children did not change is the usual case.
        let prefix = ID.commonPrefixCount(oldIDs, new)
        if prefix == oldIDs.count && prefix == new.count { return .unchanged }
        let suffix = ID.commonSuffixCount(oldIDs, new, atMost: min(oldIDs.count, new.count) - prefix)
        let oldMiddle = prefix..<(oldIDs.count - suffix)
        let newMiddle = prefix..<(new.count - suffix)
        if oldMiddle.isEmpty || newMiddle.isEmpty {
            return addedOrRemovedInOnePlace(from: oldIDs, oldIndexes, to: new, oldMiddle: oldMiddle, newMiddle: newMiddle)
        }

        // 2. Which children of the middle are removed, and which keep their rows.
        var oldPosition: [ID: Int] = [:]
        oldPosition.reserveCapacity(oldMiddle.count)
        for position in oldMiddle { oldPosition[oldIDs[position]] = position }
        let newSet = Set(new[newMiddle])
        let deletes = oldIDs[oldMiddle].filter { !newSet.contains($0) }.map(\.anyID)
        let kept = Self.longestIncreasingRun(new[newMiddle].map { oldPosition[$0] })

        // 3. Order values, in the new order: the ends keep theirs (copied as a block), the kept
        // children of the middle theirs, and the others take values between their kept
        // neighbours. With no room between two neighbours, the parent is written afresh.
        var indexes: [Int64] = []
        indexes.reserveCapacity(new.count)
        indexes.append(contentsOf: UnsafeBufferPointer(rebasing: oldIndexes[..<prefix]))
        var inserts: [Row] = []
        var moves: [Row] = []
        var pending: [Int] = []  // new positions waiting for the next kept neighbour
        var previous: Int64? = prefix > 0 ? oldIndexes[prefix - 1] : nil
        func place(before next: Int64?) -> Bool {
            guard let values = OrderValues(count: pending.count, after: previous, before: next) else { return false }
            for (position, value) in zip(pending, values) {
                indexes.append(value)
                let row = Row(child: new[position].anyID, index: value)
                if oldPosition[new[position]] == nil { inserts.append(row) } else { moves.append(row) }
            }
            pending = []
            return true
        }
        for (offset, position) in newMiddle.enumerated() {
            if kept.contains(offset), let oldIndex = oldPosition[new[position]] {
                guard place(before: oldIndexes[oldIndex]) else { return .rewrite }
                indexes.append(oldIndexes[oldIndex])
                previous = oldIndexes[oldIndex]
            } else {
                pending.append(position)
            }
        }
        guard place(before: suffix > 0 ? oldIndexes[oldIDs.count - suffix] : nil) else { return .rewrite }
        indexes.append(contentsOf: UnsafeBufferPointer(rebasing: oldIndexes[(oldIDs.count - suffix)...]))

        if moves.count > Self.maximumMoves { return .rewrite }
        return .edit(deletes: deletes, inserts: inserts, moves: moves, indexes: indexes)
    }

    /// The plan when the lists differ only by children added in one place (`oldMiddle` empty) or
    /// removed from one (`newMiddle` empty), the usual edits: no child moves, so none of the
    /// middle's bookkeeping is needed. Each list names a child once, so an added child was
    /// nowhere in the old list and a removed one is nowhere in the new. The rows inserted are the
    /// result's at `newMiddle`, so no list of them is made.
    private static func addedOrRemovedInOnePlace<ID: LookupChildID>(
        from oldIDs: UnsafeBufferPointer<ID>, _ oldIndexes: UnsafeBufferPointer<Int64>, to new: UnsafeBufferPointer<ID>,
        oldMiddle: Range<Int>, newMiddle: Range<Int>
    ) -> Outcome {
        let before = oldMiddle.lowerBound > 0 ? oldIndexes[oldMiddle.lowerBound - 1] : nil
        let after = oldMiddle.upperBound < oldIDs.count ? oldIndexes[oldMiddle.upperBound] : nil
        guard let values = OrderValues(count: newMiddle.count, after: before, before: after) else { return .rewrite }
        var indexes: [Int64] = []
        indexes.reserveCapacity(new.count)
        indexes.append(contentsOf: UnsafeBufferPointer(rebasing: oldIndexes[..<oldMiddle.lowerBound]))
        indexes.append(contentsOf: values)
        indexes.append(contentsOf: UnsafeBufferPointer(rebasing: oldIndexes[oldMiddle.upperBound...]))
        let deletes = oldMiddle.map { oldIDs[$0].anyID }
        return .editInOnePlace(deletes: deletes, inserted: newMiddle, indexes: indexes)
    }

    private init(plan: Plan, result: LookupSnapshot) {
        self.plan = plan
        self.result = result
    }

    /// The offsets of a longest strictly increasing subsequence of the non-nil values.
    static func longestIncreasingRun(_ values: [Int?]) -> Set<Int> {
        var tails: [Int] = []         // offsets ending the best run of each length
        var predecessor = [Int](repeating: -1, count: values.count)
        for (offset, value) in values.enumerated() {
            guard let value else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if let tail = values[tails[middle]], tail < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { predecessor[offset] = tails[low - 1] }
            if low == tails.count { tails.append(offset) } else { tails[low] = offset }
        }
        var run: Set<Int> = []
        var offset = tails.last ?? -1
        while offset >= 0 {
            run.insert(offset)
            offset = predecessor[offset]
        }
        return run
    }
}

extension LookupSnapshot {
    /// Each lookup row, child with order value, without copying them out.
    var rows: LazyMapCollection<Range<Int>, LookupDiff.Row> {
        let childIDs = childIDs
        let indexes = indexes
        return (0..<childIDs.count).lazy.map {
            LookupDiff.Row(child: childIDs[$0], index: indexes[indexes.startIndex + $0])
        }
    }
}

/// `count` increasing order values strictly between `lower` and `upper` (either may be open),
/// spread evenly, each worked out as it is read: a child added to a parent makes no array of
/// values of its own.
struct OrderValues: RandomAccessCollection {
    let count: Int
    private let lower: Int64?
    private let upper: Int64?

    /// Nil when there is no room: fewer than `count` integers lie between `lower` and `upper`.
    init?(count: Int, after lower: Int64?, before upper: Int64?) {
        if count > 0, let lower, let upper, upper - lower <= Int64(count) { return nil }
        self.count = count
        self.lower = lower
        self.upper = upper
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(offset: Int) -> Int64 {
        switch (lower, upper) {
        case (nil, nil):
            return LookupDiff.freshIndex(at: offset)
        case (let lower?, nil):
            return lower + Int64(offset + 1) * LookupDiff.gap
        case (nil, let upper?):
            return upper - Int64(count - offset) * LookupDiff.gap
        case (let lower?, let upper?):
            return lower + (upper - lower) * Int64(offset + 1) / Int64(count + 1)
        }
    }
}
