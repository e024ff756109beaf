import Foundation

/// The database's hand-written SQL: the statements that create it, and numbered migrations.
///
/// A new database runs ``creationSQL`` and then every migration, in order. An existing one runs
/// the migrations it has not run yet, each recording its number in `PRAGMA user_version`.
/// Everything one open runs — creation, migrations, and the check of the model against the
/// result — is one transaction, so a failed migration or a failed check leaves the database
/// exactly as it was. See <doc:Migrations>.
///
/// ```swift
/// let schema = try QSSchema(
///     creationSQL: "CREATE TABLE notes (uniqueID INTEGER PRIMARY KEY, text TEXT NOT NULL);",
///     migrations: [QSMigration(version: 1, sql: "ALTER TABLE notes ADD COLUMN archived BOOLEAN NOT NULL DEFAULT 0;")])
/// ```
public struct QSSchema: Sendable, Equatable {
    /// The SQL that creates the tables and indexes of a new database.
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
            throw QSDataError.invalidMigration(
                file: migration.name,
                problem: "expected version \(offset + 1): migrations are numbered 1, 2, 3, … without gaps")
        }
        self.creationSQL = creationSQL
        self.migrations = migrations
    }

    /// Reads the creation SQL from a file and the migrations from a folder of files named
    /// `<number>-<description>.sql` (for example `2-add-starred.sql`).
    ///
    /// - Parameters:
    ///   - creationFile: the SQL file that creates a new database.
    ///   - migrationsFolder: the folder of migration files, or nil when there are none.
    /// - Throws: ``QSDataError/invalidMigration(file:problem:)`` when a file can't be read, a
    ///   name doesn't start with its number, or the numbers have a gap.
    public init(creationFile: URL, migrationsFolder: URL? = nil) throws {
        let creationSQL: String
        do {
            creationSQL = try String(contentsOf: creationFile, encoding: .utf8)
        } catch {
            throw QSDataError.invalidMigration(file: creationFile.lastPathComponent, problem: "can't read the file")
        }
        var migrations: [QSMigration] = []
        if let migrationsFolder {
            let names = try FileManager.default.contentsOfDirectory(atPath: migrationsFolder.path)
            for name in names where name.hasSuffix(".sql") {
                let digits = name.prefix { $0.isNumber }
                guard let version = Int(digits) else {
                    throw QSDataError.invalidMigration(file: name, problem: "the name must start with its version number")
                }
                let sql = try String(contentsOf: migrationsFolder.appendingPathComponent(name), encoding: .utf8)
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
