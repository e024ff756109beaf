/// Which rows of a group were inserted ahead of it, in a few statements (see
/// `RowWriter.insertRowsAhead`): per row, nil when its insert did not run ahead, otherwise
/// whether it inserted the row (false: the row existed).
struct InsertedAhead {
    private var outcomes: [Bool?] = []

    /// No row inserted ahead.
    init() {}

    /// Of a group of `rowCount` rows, the rows at `tried` ran ahead, and those at `inserted` (some
    /// of them) were inserted; the others existed.
    init(tried: [Int], inserted: [Int], rowCount: Int) {
        outcomes = Array(repeating: nil, count: rowCount)
        for offset in tried { outcomes[offset] = false }
        for offset in inserted { outcomes[offset] = true }
    }

    /// The outcome of the insert of the row at `offset`, when it ran ahead.
    func outcome(at offset: Int) -> Bool? {
        outcomes.isEmpty ? nil : outcomes[offset]
    }
}
