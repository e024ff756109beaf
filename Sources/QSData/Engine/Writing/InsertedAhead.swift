/// Which rows of a group were inserted ahead of it, in a few statements (see
/// `RowWriter.insertRowsAhead`): per row, nil when its insert did not run ahead, otherwise
/// whether it inserted the row (false: the row existed).
struct InsertedAhead {
    private var outcomes: [Bool?] = []

    /// No row inserted ahead.
    init() {}

    /// `offsets` of `group` were tried; `insertedIDs` are the uniqueIDs the inserts returned.
    init(offsets: [Int], of group: SaveGroup, insertedIDs: [QSAnyID]) {
        outcomes = Array(repeating: nil, count: group.rows.count)
        if insertedIDs.count == offsets.count {
            // The usual case: every row was new (the group names each ID once).
            for offset in offsets { outcomes[offset] = true }
            return
        }
        let inserted = Set(insertedIDs)
        for offset in offsets { outcomes[offset] = inserted.contains(group.ids[offset]) }
    }

    /// The outcome of the row at `offset`'s insert, when it ran ahead.
    func outcome(at offset: Int) -> Bool? {
        outcomes.isEmpty ? nil : outcomes[offset]
    }
}
