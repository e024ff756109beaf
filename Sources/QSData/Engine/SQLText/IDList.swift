/// Passes any number of uniqueIDs to SQLite as one bound JSON array, read back with `json_each`.
///
/// This keeps every statement's parameter count fixed (no `IN (?, ?, …)` lists that hit
/// SQLite's variable limit) and lets one statement touch 100,000 rows.
enum IDList {
    /// The SQL that stands for "the uniqueIDs in the bound JSON array".
    static let subquery = "SELECT value FROM json_each(?)"

    static func json(_ ids: some Collection<QSAnyID>) -> SQLValue {
        .text(JSONText.array(of: ids))
    }
}
