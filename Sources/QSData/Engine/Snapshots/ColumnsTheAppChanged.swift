/// Which columns of a row the app changed, when the store keeps only the hash of the row as the
/// app's instance last showed it (see ``RowHash``).
///
/// The question comes up when a save writes a changed row, and when another writer's change is
/// merged into an instance the app may have edited. The answer compares what the instance shows
/// now with the row as the database holds it now:
/// - When the row still hashes as the instance showed it, no one else wrote it since: the app
///   changed exactly the columns that differ.
/// - Otherwise another writer changed it too. Each column that differs was changed either by the
///   app (the instance showed the value the row still holds) or by the other writer (the instance
///   still shows the value the row held before). Each way of telling them apart gives one row the
///   instance could have shown; the one that hashes as the instance showed it says which.
/// - A column both changed matches no way: the row's old value is in neither. When it is the only
///   column that differs, the app changed it (as it did every column it alone changed). When
///   others differ too, the store can't tell which the app changed, and answers none, so that the
///   row as written wins in memory and on disk alike.
enum ColumnsTheAppChanged {
    /// Beyond this many differing columns the ways to tell them apart (two to the power of their
    /// count) are not tried, and the row as written wins.
    static let mostColumnsTried = 12

    /// The columns (positions in the layout) where `shownNow`, the row as the app's instance
    /// shows it now, holds what the app changed, given `current`, the row as the database holds it
    /// now, and `shown`, the hash of the row as the instance showed it when it was last in step.
    static func find(in shownNow: some RandomAccessCollection<SQLValue>, current: [SQLValue], shown: RowHash) -> [Int] {
        guard shownNow.count == current.count else { return [] }
        let values = Array(shownNow)
        let differing = values.indices.filter { values[$0] != current[$0] }
        if differing.isEmpty { return [] }
        if RowHash(of: current) == shown { return differing }
        guard differing.count <= mostColumnsTried else { return [] }
        // Bit n set: the other writer changed differing[n], so the instance showed its own value
        // there; clear: the app changed it, so the instance showed the row's. All clear is the row
        // itself, looked at above.
        var candidate = current
        for writerChanged in 1 ..< (1 << differing.count) {
            for (bit, column) in differing.enumerated() {
                candidate[column] = writerChanged & (1 << bit) != 0 ? values[column] : current[column]
            }
            if RowHash(of: candidate) == shown {
                return differing.enumerated().filter { writerChanged & (1 << $0.offset) == 0 }.map(\.element)
            }
        }
        // Some column both changed; alone, it is the app's.
        return differing.count == 1 ? differing : []
    }
}
