import Foundation

/// The database's hand-written SQL: the statements that create it, and numbered migrations.
///
/// The creation SQL is schema version 0. Migrations are numbered on top of it, 1, 2, 3, …, and a
/// database's `PRAGMA user_version` is the number of the last migration it ran: a database made
/// from the creation SQL alone is at version 0, one that also ran `1-add-starred.sql` is at 1.
///
/// Opening a database runs, in one transaction, the creation SQL when the database is new and
/// then every migration it has not run yet, and checks the data model against the result: if
/// anything fails, nothing is kept. A database whose version is higher than the last migration
/// the app knows was written by a newer app and is refused before anything is written.
/// See <doc:Migrations>.
///
/// ```swift
/// let schema = try QSSchema(
///     creationSQL: "CREATE TABLE notes (uniqueID INTEGER PRIMARY KEY, text TEXT NOT NULL);",
///     migrations: [QSMigration(version: 1, sql: "ALTER TABLE notes ADD COLUMN archived BOOLEAN NOT NULL DEFAULT 0;")])
/// ```
public struct QSSchema: Sendable, Equatable {
    /// The SQL that creates the tables and indexes of a new database (schema version 0).
    public let creationSQL: String
    /// Migrations by ascending version, starting at 1.
    public let migrations: [QSMigration]

    /// A schema from SQL text.
    ///
    /// - Parameters:
    ///   - creationSQL: the statements that create a new database, separated by semicolons.
    ///   - migrations: the migrations, numbered 1, 2, 3, … in this order.
    /// - Throws: ``QSDataError/invalidMigration(file:problem:)`` when the numbers are not 1, 2, 3, …
    public init(creationSQL: String, migrations: [QSMigration] = []) throws {
        for (offset, migration) in migrations.enumerated() where migration.version != offset + 1 {
            let problem = migration.version == offset
                ? "another migration also has version \(offset)"
                : "expected version \(offset + 1): migrations are numbered 1, 2, 3, … without gaps"
            throw QSDataError.invalidMigration(file: migration.name, problem: problem)
        }
        self.creationSQL = creationSQL
        self.migrations = migrations
    }

    /// Reads the creation SQL from a file and the migrations from a folder of files named
    /// `<number>-<description>.sql` (for example `1-add-starred.sql`); other files are ignored.
    ///
    /// - Parameters:
    ///   - creationFile: the SQL file that creates a new database.
    ///   - migrationsFolder: the folder of migration files, or nil when there are none.
    /// - Throws: ``QSDataError/unreadableFile(path:reason:)`` naming a file or folder that can't
    ///   be read, ``QSDataError/invalidMigration(file:problem:)`` for a misnamed or misnumbered one.
    public init(creationFile: URL, migrationsFolder: URL? = nil) throws {
        let creationSQL = try FileContents.text(at: creationFile)
        var migrations: [QSMigration] = []
        if let migrationsFolder {
            for name in try FileContents.names(inFolder: migrationsFolder) where name.hasSuffix(".sql") {
                let digits = name.prefix { $0.isNumber }
                guard let version = Int(digits) else {
                    throw QSDataError.invalidMigration(file: name, problem: "the name must start with its version number")
                }
                let sql = try FileContents.text(at: migrationsFolder.appendingPathComponent(name))
                migrations.append(QSMigration(version: version, name: name, sql: sql))
            }
        }
        try self.init(creationSQL: creationSQL, migrations: migrations.sorted { $0.version < $1.version })
    }

    /// The version a fully migrated database has.
    public var latestVersion: Int { migrations.last?.version ?? 0 }
}

/// One schema change, run once per database, in its own transaction (see <doc:Migrations>).
///
/// ```swift
/// let addArchived = QSMigration(version: 1, sql: "ALTER TABLE notes ADD COLUMN archived BOOLEAN NOT NULL DEFAULT 0")
/// ```
public struct QSMigration: Sendable, Equatable {
    /// Its number: the first migration is 1, and each next one adds 1.
    public let version: Int
    /// A name for messages, usually the file name.
    public let name: String
    /// The statements it runs, separated by semicolons.
    public let sql: String

    /// - Parameters:
    ///   - version: its number, 1 for the first migration.
    ///   - name: a name for error messages; `migration <version>` when nil.
    ///   - sql: the statements it runs.
    public init(version: Int, name: String? = nil, sql: String) {
        self.version = version
        self.name = name ?? "migration \(version)"
        self.sql = sql
    }
}
