/// What the data model says about a type's full-text search: the FTS5 table that indexes it and
/// the properties that table holds.
///
/// Declared in the plist under the type's `search` key:
/// ```xml
/// <key>search</key>
/// <dict>
///   <key>table</key><string>notesSearch</string>
///   <key>columns</key><array><string>text</string></array>
/// </dict>
/// ```
/// The schema SQL creates the FTS5 table (usually with `content=` naming the type's table, so the
/// text is stored once) and the triggers that keep it current; the store checks both when it opens.
public struct QSSearchDescription: Sendable, Equatable {
    /// The FTS5 virtual table.
    public let table: String
    /// The indexed properties, in the FTS5 table's column order.
    public let columns: [String]

    public init(table: String, columns: [String]) {
        self.table = table
        self.columns = columns
    }
}
