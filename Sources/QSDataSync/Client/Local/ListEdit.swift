/// What changed in one list between the order sync knew and the order the app saved: the
/// children taken out, those put in, and a new position key for each child put in or moved.
/// Children that kept their order relative to each other (the longest such run) keep their
/// keys, so moving one child writes one key however long the list.
struct ListEdit: Equatable {
    var removed: [SyncID] = []
    var added: [SyncID] = []
    var positions: [SyncID: String] = [:]

    var isEmpty: Bool { removed.isEmpty && added.isEmpty && positions.isEmpty }

    init(removed: [SyncID] = [], added: [SyncID] = [], positions: [SyncID: String] = [:]) {
        self.removed = removed
        self.added = added
        self.positions = positions
    }

    /// - Parameters:
    ///   - known: the listed children in their keys' order, with their keys.
    ///   - saved: the children in the order the app saved.
    init(known: [(child: SyncID, key: String)], saved: [SyncID], replica: SyncReplicaID) {
        var seen: Set<SyncID> = []
        let saved = saved.filter { seen.insert($0).inserted }
        var knownIndex: [SyncID: Int] = [:]
        for (index, item) in known.enumerated() { knownIndex[item.child] = index }
        removed = known.map(\.child).filter { !seen.contains($0) }
        added = saved.filter { knownIndex[$0] == nil }
        let kept = Self.longestIncreasingRun(saved.compactMap { knownIndex[$0] })
        if let positions = Self.keys(for: saved, keeping: kept, known: known, replica: replica) {
            self.positions = positions
        } else {
            // No key fits somewhere, or keys grew long: every child gets a fresh, short one.
            let fresh = SyncListPosition.run(of: saved.count, between: nil, and: nil, replica: replica) ?? []
            positions = Dictionary(uniqueKeysWithValues: zip(saved, fresh).map { ($0, $1) })
        }
    }

    /// New keys for the children not kept, each run of them between its neighbours' keys; nil
    /// when no key fits or one grows past ``SyncListPosition/rebalanceLength``.
    private static func keys(
        for saved: [SyncID], keeping kept: Set<Int>, known: [(child: SyncID, key: String)], replica: SyncReplicaID
    ) -> [SyncID: String]? {
        var knownIndex: [SyncID: Int] = [:]
        for (index, item) in known.enumerated() { knownIndex[item.child] = index }
        var positions: [SyncID: String] = [:]
        var lowKey: String?
        var run: [SyncID] = []
        func place(before highKey: String?) -> Bool {
            guard !run.isEmpty else { return true }
            guard let keys = SyncListPosition.run(of: run.count, between: lowKey, and: highKey, replica: replica),
                  keys.allSatisfy({ $0.utf8.count < SyncListPosition.rebalanceLength })
            else { return false }
            for (child, key) in zip(run, keys) { positions[child] = key }
            lowKey = keys.last
            run = []
            return true
        }
        for child in saved {
            if let index = knownIndex[child], kept.contains(index) {
                guard place(before: known[index].key) else { return nil }
                lowKey = known[index].key
            } else {
                run.append(child)
            }
        }
        return place(before: nil) ? positions : nil
    }

    /// The values of one longest strictly increasing subsequence of `values` (patience sorting).
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // indexes into values: the smallest tail of a run of each length
        var previous = Array(repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: Set<Int> = []
        var index = tails.last ?? -1
        while index >= 0 {
            run.insert(values[index])
            index = previous[index]
        }
        return run
    }
}

extension SyncRecord {
    /// Sets the parts of `list` that `edit` changed, stamped `stamp`, and returns them.
    mutating func apply(_ edit: ListEdit, to list: String, at stamp: SyncStamp) -> [SyncListPart] {
        var parts: [SyncListPart] = []
        func set(_ child: SyncID, _ kind: SyncListPart.Kind, to value: SyncValue) {
            let part = SyncListPart(list: list, child: child, kind: kind)
            stamps[part.name] = stamp
            values[part.name] = value
            parts.append(part)
        }
        for child in edit.removed { set(child, .membership, to: .null) }
        for child in edit.added { set(child, .membership, to: SyncListPart.listed) }
        for (child, key) in edit.positions.sorted(by: { $0.value < $1.value }) { set(child, .position, to: .text(key)) }
        return parts
    }
}
