/// Which rows of a group were inserted ahead of it, in a few statements (see
/// `RowWriter.insertRowsAhead`): per row, nil when its insert did not run ahead, otherwise
/// whether it inserted the row (false: the row existed).
struct InsertedAhead {
    private var outcomes: [Bool?] = []

    /// No row inserted ahead.
    init() {}

    /// The rows at `tried` of `group` were inserted, but for those whose uniqueIDs are `existing`.
    init(tried: [Int], of group: SaveGroup, existing: Set<QSAnyID>) {
        outcomes = Array(repeating: nil, count: group.rows.count)
        for offset in tried { outcomes[offset] = existing.isEmpty || !existing.contains(group.ids[offset]) }
    }

    /// The outcome of the insert of the row at `offset`, when it ran ahead.
    func outcome(at offset: Int) -> Bool? {
        outcomes.isEmpty ? nil : outcomes[offset]
    }
}
