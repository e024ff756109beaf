/// The `DEFAULT` of every column of a schema, as SQLite reports it once the creation SQL and
/// every migration have run: what the model code generator offers as default arguments.
package struct ColumnDefaults: Sendable, Equatable {
    /// The default's SQL text (`0`, `'draft'`, `CURRENT_TIMESTAMP`) by table, then by column.
    private let sqlByTable: [String: [String: String]]

    /// No schema: no column has a default.
    package static let none = ColumnDefaults(sqlByTable: [:])

    private init(sqlByTable: [String: [String: String]]) {
        self.sqlByTable = sqlByTable
    }

    /// Builds the schema in an in-memory database and reads the defaults of `tables`' columns.
    ///
    /// - Throws: ``QSDataError/invalidMigration(file:problem:)`` when the creation SQL or a
    ///   migration fails, as opening a store with the schema would.
    package init(schema: QSSchema, tables: Set<String>) throws {
        let connection = try SQLiteConnection(path: ":memory:")
        var sqlByTable: [String: [String: String]] = [:]
        try SchemaInstaller(schema: schema, path: ":memory:").install(on: connection) { connection in
            for table in tables {
                let columns = try TableColumns.read(table, from: connection).columns
                sqlByTable[table] = Dictionary(
                    columns.compactMap { column in column.defaultSQL.map { (column.name, $0) } },
                    uniquingKeysWith: { first, _ in first })
            }
        }
        self.sqlByTable = sqlByTable
    }

    /// The SQL text of the column's `DEFAULT`, or nil when it has none.
    package func sql(table: String, column: String) -> String? {
        sqlByTable[table]?[column]
    }
}
