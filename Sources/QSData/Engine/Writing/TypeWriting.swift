/// What writing one type's saved rows needs besides the rows: its statements, its lookup
/// writers, the other types on its table, and a few facts of its description.
///
/// Found once per transaction (see ``TypeWritings``): a large save hands the queue a group of
/// each type per chunk, and finding these again for each group would hash the statements' SQL
/// (to find them in the connection's cache) and copy the type's description every time.
final class TypeWriting {
    /// The other types on the same table that keep instances, whose snapshots a changed row patches.
    let cachingSiblings: [any AnyTypeBinding]
    /// The names of the type and its siblings, under which observers hear of the rows written.
    let typeNames: [String]
    let table: String
    /// Whether the type's rows are never updated.
    let immutable: Bool
    let statements: RowStatements
    let lookupWriters: LookupWriters

    init(_ binding: any AnyTypeBinding, registry: TypeRegistry, connection: SQLiteConnection) throws {
        let siblings = registry.siblings(of: binding)
        cachingSiblings = siblings.filter(\.cachesInstances)
        typeNames = ([binding] + siblings).map(\.description.name)
        // Read once: through the type-erased binding, each read of its description copies the
        // whole description (its arrays and strings retained, then released).
        let description = binding.description
        table = description.table
        immutable = description.immutable
        statements = try RowStatements(binding, connection: connection)
        lookupWriters = LookupWriters(binding.sql, connection: connection)
    }
}

/// The ``TypeWriting`` of each type a transaction saves, made the first time it saves one.
final class TypeWritings {
    private let registry: TypeRegistry
    private let connection: SQLiteConnection
    // Touched for every row or instance, by one thread, one access at a time: unchecked, since
    // Swift's dynamic exclusivity check cost more than most of the accesses.
    @exclusivity(unchecked) private var byType: [ObjectIdentifier: TypeWriting] = [:]

    init(registry: TypeRegistry, connection: SQLiteConnection) {
        self.registry = registry
        self.connection = connection
    }

    func of(_ binding: any AnyTypeBinding) throws -> TypeWriting {
        let key = ObjectIdentifier(binding)
        if let writing = byType[key] { return writing }
        let writing = try TypeWriting(binding, registry: registry, connection: connection)
        byType[key] = writing
        return writing
    }
}

/// The statements that write a type's whole rows, with what else writing a row asks of the type.
struct RowStatements {
    let sql: TableSQL
    /// Inserts a row, doing nothing when it exists.
    let insert: SQLiteStatement
    /// Inserts many rows at once, skipping those that exist (see ``RowWriter`` on the rows
    /// inserted ahead of a group). It returns the uniqueIDs it inserted unless SQLite's update
    /// hook names them (`uniqueIDIsRowID`).
    let insertMany: ManyRowStatements
    /// Whether the uniqueID is the table's rowid (see ``TableFacts/uniqueIDIsRowID``).
    let uniqueIDIsRowID: Bool
    /// The table's name, unquoted, as SQLite's update hook names it.
    let table: String
    /// Updates an existing row where any value differs; nil for a type whose only column is its uniqueID.
    let updateIfChanged: SQLiteStatement?
    /// The table's required columns the type lacks: when any, the type can't insert its rows.
    let columnsMissingForInsert: [String]
    /// Reads one row by its uniqueID, for a save that must find which of its columns differ
    /// (see ``ColumnsToWrite``).
    let selectByID: SQLiteStatement

    init(_ binding: any AnyTypeBinding, connection: SQLiteConnection) throws {
        sql = binding.sql
        insert = try connection.statement(sql.insert)
        let uniqueIDIsRowID = binding.tableFacts.uniqueIDIsRowID
        self.uniqueIDIsRowID = uniqueIDIsRowID
        table = binding.description.table
        insertMany = ManyRowStatements(parametersPerRow: sql.columnCount, connection: connection) { [sql] rows in
            sql.insertSkippingExisting(rows: rows, returningIDs: !uniqueIDIsRowID)
        }
        updateIfChanged = try sql.updateIfChanged.map { try connection.statement($0) }
        columnsMissingForInsert = binding.tableFacts.columnsMissingForInsert
        selectByID = try connection.statement(sql.selectByID)
    }
}
