/// New values for a few columns, set on each held instance of a class through its
/// `update(column:from:)` (see ``QSUpdatableObject``): for a bulk update of many instances, this
/// costs a fraction of encoding each one and calling `update(from:)` with its whole row.
///
/// A class, so that the loop over the instances, which may drop it part-way, takes one
/// reference to it per instance rather than one to each of its four parts.
final class ColumnPatch {
    /// The columns set, by position in the row, and by name.
    private let indexes: [Int]
    private let names: [String]
    /// The row each instance reads: the new values at their columns, NULL elsewhere.
    private let row: QSRow
    private let update: (AnyObject, [String], QSRow) throws -> Bool

    init(_ overlay: [(index: Int, value: SQLValue)], layout: RowLayout, update: @escaping (AnyObject, [String], QSRow) throws -> Bool) {
        var values = Array(repeating: SQLValue.null, count: layout.count)
        for (index, value) in overlay { values[index] = value }
        row = QSRow(layout: layout, values: values, parentID: .integer(0))
        indexes = overlay.map(\.index)
        names = indexes.map { layout.names[$0] }
        self.update = update
    }

    /// Sets the new values on `object`, but for the columns `kept` says keep the instance's own;
    /// returns false when the type doesn't set one of them alone (it may have set others).
    func apply(to object: AnyObject, id: QSAnyID, keeping kept: (Int) -> Bool) throws -> Bool {
        row.advance(parentID: id)
        guard indexes.contains(where: kept) else { return try update(object, names, row) }
        let set = zip(indexes, names).filter { !kept($0.0) }.map(\.1)
        return try update(object, set, row)
    }
}
