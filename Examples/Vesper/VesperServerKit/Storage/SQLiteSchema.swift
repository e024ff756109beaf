import QSData

/// The embedded engine's schema: no joins, every table keyed by userID, dates
/// as exact Int64 milliseconds (UTC), note text sealed with the ID of its key.
///
/// Numbered migrations: the file's `user_version` is the last one applied; each later one runs
/// in its own transaction with the version bump, so a failed migration leaves the file as it was.
enum SQLiteSchema {
    static let migrations: [(version: Int64, script: String)] = [(1, version1), (2, version2)]

    static var latestVersion: Int64 { migrations.last?.version ?? 0 }

    /// Refuses a file this server did not make before anything changes it (its journal mode
    /// included): one with tables but no version, one newer than this server, or one that
    /// lacks a table or column the migrations up to its version make. An empty file is new.
    static func requireOwnFile(_ connection: SQLiteConnection, path: String) throws {
        let current = try connection.fetchRows("PRAGMA user_version").first?.first?.int64Value ?? 0
        if current > latestVersion { throw StorageError.schemaTooNew(found: current, known: latestVersion) }
        let found = try connection.tableColumns()
        if found.isEmpty && current == 0 { return }
        let scratch = try SQLiteConnection(path: ":memory:")
        for migration in migrations where migration.version <= current {
            try scratch.executeScript(migration.script)
        }
        let expected = try scratch.tableColumns()
        guard current > 0,
            expected.allSatisfy({ table, columns in found[table].map(columns.isSubset(of:)) ?? false })
        else { throw StorageError.notAServerDatabase(path: path) }
    }

    static func migrate(_ connection: SQLiteConnection) throws {
        let current = try connection.fetchRows("PRAGMA user_version").first?.first?.int64Value ?? 0
        for migration in migrations where migration.version > current {
            try connection.transaction {
                try connection.executeScript(migration.script)
                try connection.execute("PRAGMA user_version = \(migration.version)")
            }
        }
    }

    /// Accounts, notes, tombstones, tags, blob metadata and password resets.
    private static let version1 = """
        CREATE TABLE IF NOT EXISTS accounts (
            id INTEGER PRIMARY KEY,
            username TEXT NOT NULL UNIQUE,
            passwordHash TEXT NOT NULL,
            passwordAlgorithm TEXT NOT NULL,
            credentialVersion INTEGER NOT NULL DEFAULT 1,
            emailUpdates INTEGER NOT NULL DEFAULT 0,
            dateCreated INTEGER NOT NULL,
            verificationDate INTEGER
        );
        CREATE TABLE IF NOT EXISTS notes (
            userID INTEGER NOT NULL,
            noteID INTEGER NOT NULL,
            archived INTEGER,
            text BLOB,
            textKeyID INTEGER,
            creationDate INTEGER NOT NULL,
            sortDate INTEGER NOT NULL,
            textModificationDate INTEGER,
            archivedModificationDate INTEGER,
            sortDateModificationDate INTEGER,
            tagsModificationDate INTEGER,
            attachmentsModificationDate INTEGER,
            serverModificationDate INTEGER NOT NULL,
            tags TEXT,
            attachments BLOB,
            PRIMARY KEY (userID, noteID)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS notes_userID_serverModificationDate ON notes (userID, serverModificationDate);
        CREATE TABLE IF NOT EXISTS deletedNotes (
            userID INTEGER NOT NULL,
            noteID INTEGER NOT NULL,
            serverModificationDate INTEGER NOT NULL,
            PRIMARY KEY (userID, noteID)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS deletedNotes_userID_serverModificationDate
            ON deletedNotes (userID, serverModificationDate);
        CREATE TABLE IF NOT EXISTS tags (
            userID INTEGER NOT NULL,
            uniqueID TEXT NOT NULL,
            name TEXT NOT NULL,
            nameModificationDate INTEGER NOT NULL,
            PRIMARY KEY (userID, uniqueID)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS blobs (
            userID INTEGER NOT NULL,
            name TEXT NOT NULL,
            contentType TEXT NOT NULL,
            byteCount INTEGER NOT NULL,
            md5 TEXT NOT NULL,
            dateCreated INTEGER NOT NULL,
            PRIMARY KEY (userID, name)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS passwordResets (
            tokenHash BLOB PRIMARY KEY,
            userID INTEGER NOT NULL,
            expiry INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS passwordResets_userID ON passwordResets (userID);
        """

    /// Failed logins, so that the throttle survives a restart.
    private static let version2 = """
        CREATE TABLE loginFailures (
            key TEXT NOT NULL,
            date INTEGER NOT NULL
        );
        CREATE INDEX loginFailures_key_date ON loginFailures (key, date);
        CREATE INDEX loginFailures_date ON loginFailures (date);
        """
}
