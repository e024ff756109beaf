/// The statement a save runs before writing a changed object of a class that does not mark its
/// changes: the store keeps a hash of each held row, not its values, so it reads the rows whose
/// hash changed to find the columns that differ: one row by its uniqueID, as here. `columns` in
/// the type's order (uniqueID first, then the others by name).
func rowReadSQL(_ table: String, _ columns: [String]) -> String {
    "SELECT " + columns.map { "\"\($0)\"" }.joined(separator: ", ") + " FROM \"\(table)\" WHERE \"uniqueID\" = ?1"
}
