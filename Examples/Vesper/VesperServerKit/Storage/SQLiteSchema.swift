/// The embedded engine's schema: no joins, every table keyed by userID, dates
/// as exact Int64 milliseconds (UTC), note text sealed with the ID of its key.
enum SQLiteSchema {
    static let version: Int64 = 1

    static let script = """
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
        PRAGMA user_version = 1;
        """
}
