/// Which rows of a group were inserted ahead of it, in a few statements (see
/// `RowWriter.insertRowsAhead`): per row, nil when its insert did not run ahead, otherwise
/// whether it inserted the row (false: the row existed).
struct InsertedAhead {
    private var outcomes: [Bool?] = []

    /// No row inserted ahead.
    init() {}

    /// The rows at `offsets`, of a group of `rowCount`, all were inserted, or all existed.
    init(offsets: [Int], rowCount: Int, inserted: Bool) {
        outcomes = Array(repeating: nil, count: rowCount)
        for offset in offsets { outcomes[offset] = inserted }
    }

    /// The outcome of the insert of the row at `offset`, when it ran ahead.
    func outcome(at offset: Int) -> Bool? {
        outcomes.isEmpty ? nil : outcomes[offset]
    }
}
