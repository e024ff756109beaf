import ExampleTestSupport
import Foundation
import QSData
import Testing

@testable import VesperServerKit

@Suite("Storage engines", .timeLimit(.minutes(10)))
struct StorageTests {
    /// Two instances on one fresh store — two connection pools on PostgreSQL; SQLite has one
    /// instance by design, so both are the same storage — and an account; then the store goes.
    static func withTwoInstances(
        _ engine: Engine, _ body: (any VesperStorage, any VesperStorage, SyncAccount) async throws -> Void
    ) async throws {
        let store = try await TestStore.make(engine)
        try await store.withStorage { first in
            try await store.withStorage { second in
                let userID = try await first.createAccount(
                    username: "a@example.com", passwordHash: "h", passwordAlgorithm: "x", emailUpdates: false)
                try await body(first, engine == .sqlite ? first : second, SyncAccount(id: userID, credentialVersion: 1))
            }
        }
        await store.remove()
    }

    @Test(arguments: Engine.available) func notesAreInsertedAndReturned(engine: Engine) async throws {
        let store = try await TestStore.make(engine)
        try await store.withStorage { storage in
            let userID = try await storage.createAccount(
                username: "a@example.com", passwordHash: "h", passwordAlgorithm: "x", emailUpdates: false)
            let account = SyncAccount(id: userID, credentialVersion: 1)
            let note = SyncNote(noteID: 1234, text: "hello", creationDate: 1, sortDate: 2, textModificationDate: 3)
            let result = try await storage.syncNotes([note], since: nil, overlap: 600_000, account: account)
            #expect(result.items == [note])
        }
        #expect(try await store.rows("SELECT noteID, userID FROM notes") == [[1234, 1]])
        await store.remove()
    }

    /// Opening an up-to-date database again changes nothing; the recorded version is the latest.
    @Test(arguments: Engine.available) func theSchemaIsMigratedOnceToItsLatestNumberedVersion(engine: Engine) async throws {
        let store = try await TestStore.make(engine)
        try await store.withStorage { _ in }
        try await store.withStorage { _ in }
        switch engine {
        case .sqlite:
            #expect(try await store.rows("PRAGMA user_version") == [[.integer(SQLiteSchema.latestVersion)]])
        case .postgres:
            #expect(
                try await store.rows("SELECT version FROM vesperSchemaVersions ORDER BY version")
                    == PostgresSchema.migrations.map { [.integer($0.version)] })
        }
        await store.remove()
    }

    /// Two instances merge the same note at the same moment, each changing a different
    /// property: every change stays.
    @Test(arguments: Engine.available) func concurrentMergesOfOneNoteOnTwoInstancesLoseNoProperty(engine: Engine) async throws {
        try await Self.withTwoInstances(engine) { a, b, account in
            let base = SyncNote(noteID: 77, text: "v0", creationDate: 1, sortDate: 1, textModificationDate: 1)
            _ = try await a.syncNotes([base], since: nil, overlap: 0, account: account)
            for round in Int64(1)...20 {
                var text = base
                text.text = "text \(round)"
                text.textModificationDate = 1 + round
                var archived = base
                archived.textModificationDate = nil
                archived.archived = round % 2 == 0
                archived.archivedModificationDate = 1 + round
                var tags = base
                tags.textModificationDate = nil
                tags.tags = "Tag\(round)"
                tags.tagsModificationDate = 1 + round
                try await withDeadline(.seconds(120), "round \(round)'s three concurrent syncs") { [text, archived, tags] in
                    async let one = a.syncNotes([text], since: nil, overlap: 0, account: account)
                    async let two = b.syncNotes([archived], since: nil, overlap: 0, account: account)
                    async let three = b.syncNotes([tags], since: nil, overlap: 0, account: account)
                    _ = try await (one, two, three)
                }
            }
            let stored = try await a.syncNotes([], since: nil, overlap: 0, account: account).items
            #expect(stored.map(\.text) == ["text 20"])
            #expect(stored.map(\.archived) == [true])
            #expect(stored.map(\.tags) == ["Tag20"])
            #expect(stored.map(\.archivedModificationDate) == [21])
        }
    }

    /// A delete on one instance and a late edit of the same note on another, at the same moment:
    /// whichever commits first, the tombstone wins and the note stays gone.
    @Test(arguments: Engine.available) func aTombstoneBeatsAConcurrentUploadOnAnotherInstance(engine: Engine) async throws {
        try await Self.withTwoInstances(engine) { a, b, account in
            let notes = (Int64(1000)..<1020).map {
                SyncNote(noteID: $0, text: "v0", creationDate: 1, sortDate: 1, textModificationDate: 1)
            }
            _ = try await a.syncNotes(notes, since: nil, overlap: 0, account: account)
            let edits = notes.map { note in
                var edit = note
                edit.text = "late edit"
                edit.textModificationDate = 2
                return edit
            }
            async let deleted = a.syncDeletedNotes(notes.map(\.noteID), since: nil, account: account)
            async let edited = b.syncNotes(edits, since: nil, overlap: 0, account: account)
            _ = try await (deleted, edited)
            _ = try await b.syncNotes(edits, since: nil, overlap: 0, account: account)
            #expect(try await a.syncNotes([], since: nil, overlap: 0, account: account).items.isEmpty)
            let tombstones = try await a.syncDeletedNotes([], since: nil, account: account).items
            #expect(tombstones.sorted() == notes.map(\.noteID))
        }
    }

    /// An upload larger than one write batch, of stored notes, new ones and a tombstoned one:
    /// each property merges on its own, the tombstoned note stays gone, and every change comes
    /// back once, in date order (one date for the whole call, then by ID).
    @Test(arguments: Engine.available) func anUploadOfSeveralWriteBatchesMergesAndReturnsEachChangeOnce(engine: Engine) async throws {
        try await Self.withTwoInstances(engine) { storage, _, account in
            let stored = (Int64(1)...1_500).map {
                SyncNote(noteID: $0, text: "v1 \($0)", creationDate: 1, sortDate: 1, textModificationDate: 1)
            }
            _ = try await storage.syncNotes(stored, since: nil, overlap: 0, account: account)
            _ = try await storage.syncDeletedNotes([7], since: nil, account: account)
            let uploaded = (Int64(1)...2_500).map {
                SyncNote(
                    noteID: $0, archived: true, text: "v2 \($0)", creationDate: 1, sortDate: 1,
                    textModificationDate: $0 % 2 == 0 ? 2 : 0, archivedModificationDate: 5)
            }
            let result = try await storage.syncNotes(uploaded, since: nil, overlap: 0, account: account)
            #expect(result.items.map(\.noteID) == (Int64(1)...2_500).filter { $0 != 7 })
            let byID = Dictionary(uniqueKeysWithValues: result.items.map { ($0.noteID, $0) })
            #expect(byID[2]?.text == "v2 2" && byID[2]?.archived == true)
            #expect(byID[3]?.text == "v1 3" && byID[3]?.archived == true)
            #expect(byID[2_001]?.text == "v2 2001" && byID[2_001]?.textModificationDate == 0)
        }
    }

    /// A sync call whose login was revoked (the password changed since the token) is refused
    /// and writes nothing, on every call.
    @Test(arguments: Engine.available) func aRevokedLoginSyncsNothing(engine: Engine) async throws {
        try await Self.withTwoInstances(engine) { storage, _, account in
            let revoked = SyncAccount(id: account.id, credentialVersion: account.credentialVersion + 1)
            let note = SyncNote(noteID: 5, text: "x", creationDate: 1, sortDate: 1)
            await #expect(throws: StorageError.revokedLogin) {
                try await storage.syncNotes([note], since: nil, overlap: 0, account: revoked)
            }
            await #expect(throws: StorageError.revokedLogin) {
                try await storage.syncDeletedNotes([5], since: nil, account: revoked)
            }
            await #expect(throws: StorageError.revokedLogin) {
                try await storage.syncTags([SyncTag(uniqueID: "a", name: "A", nameModificationDate: 1)], account: revoked)
            }
            let missing = SyncAccount(id: account.id + 1, credentialVersion: 1)
            await #expect(throws: StorageError.revokedLogin) {
                try await storage.syncNotes([note], since: nil, overlap: 0, account: missing)
            }
            let notes = try await storage.syncNotes([], since: nil, overlap: 0, account: account)
            let tombstones = try await storage.syncDeletedNotes([], since: nil, account: account)
            let tags = try await storage.syncTags([], account: account)
            #expect(notes.items.isEmpty && tombstones.items.isEmpty && tags.isEmpty)
        }
    }

    /// Failed logins recorded through one instance count on another.
    @Test(arguments: Engine.available) func loginFailuresAreSharedByInstancesAndForgotten(engine: Engine) async throws {
        try await Self.withTwoInstances(engine) { a, b, _ in
            try await a.recordLoginFailure(keys: ["user:a", "address:x"], date: 1_000, forgetBefore: 0)
            try await a.recordLoginFailure(keys: ["user:a"], date: 2_000, forgetBefore: 0)
            #expect(
                try await b.loginFailures(keys: ["user:a", "address:x", "user:b"], since: 0) == [
                    "user:a": LoginFailures(count: 2, oldest: 1_000), "address:x": LoginFailures(count: 1, oldest: 1_000),
                ])
            #expect(try await b.loginFailures(keys: ["user:a"], since: 1_500) == ["user:a": LoginFailures(count: 1, oldest: 2_000)])
            try await b.clearLoginFailures(key: "user:a")
            #expect(try await a.loginFailures(keys: ["user:a"], since: 0).isEmpty)
            try await b.recordLoginFailure(keys: ["user:c"], date: 70_000, forgetBefore: 10_000)
            #expect(try await a.loginFailures(keys: ["user:a", "address:x", "user:c"], since: 0) == [
                "user:c": LoginFailures(count: 1, oldest: 70_000)])
        }
    }
}

@Suite("Configuration")
struct ConfigurationTests {
    @Test func databaseArgumentsNamePostgreSQLByURLAndSQLiteOtherwise() throws {
        #expect(VesperDatabase("/var/lib/vesper.sqlite") == .sqlite(path: "/var/lib/vesper.sqlite"))
        #expect(VesperDatabase("PostgreSQL://u@h/d") == .postgres(url: "PostgreSQL://u@h/d"))
        #expect(VesperDatabase("postgres://u:secret@h/d").description == "postgres://u:%E2%80%A6@h/d")
        let configuration = try VesperDatabase.postgresConfiguration(
            "postgres://vesper:p%40ss@db.internal:6543/notes?sslmode=disable&schema=tenant1&pool_size=7")
        #expect(configuration.host == "db.internal" && configuration.port == 6543)
        #expect(configuration.username == "vesper" && configuration.password == "p@ss" && configuration.database == "notes")
        #expect(configuration.options.maximumConnections == 7)
        #expect(configuration.options.additionalStartupParameters.map { "\($0.0)=\($0.1)" } == ["search_path=tenant1"])
        for bad in ["postgres:///d", "postgres://h/d", "postgres://u@h/d?sslmode=verify", "postgres://u@h/d?pool_size=0"] {
            #expect(throws: VesperServerError.self, "\(bad)") { try VesperDatabase.postgresConfiguration(bad) }
        }
    }

    @Test func postgreSQLStorageRefusesToStartWithoutASharedSecret() throws {
        let configuration = VesperServerConfiguration(database: .postgres(url: "postgres://u@127.0.0.1/d"), attachmentsPath: "")
        #expect(throws: VesperServerError.self) {
            try VesperSyncServer(configuration: configuration, logger: .init(label: "test"))
        }
    }

    @Test(.enabled(if: Engine.postgresURL != nil || Engine.postgresRequired, Engine.postgresSkipMessage))
    func thePostgreSQLTestServerIsReachable() async throws {
        let store = try await TestStore.make(.postgres)
        #expect(try await store.rows("SELECT 1") == [[1]])
        await store.remove()
    }
}

@Suite("QSData behaviour the server relies on")
struct QSDataAssumptionTests {
    /// `SQLiteConnection.fetchValue` currently answers `.null` rather than nil when there is no
    /// row (its ternary's `nil` becomes `SQLValue.null`, which is nil-literal-expressible), so the
    /// server tests whether a row exists with `fetchRows`.
    @Test func rowExistenceIsTestedWithFetchRows() throws {
        let connection = try QSData.SQLiteConnection(path: ":memory:")
        #expect(try connection.fetchRows("SELECT 1 WHERE 0").isEmpty)
        #expect(try connection.fetchRows("SELECT 1").count == 1)
    }
}
