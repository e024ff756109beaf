import Foundation
import QSData
import QSDataSync

// The Swift samples of the DocC article "Syncing your app's data", compiled. Each region between
// `sample-begin` and `sample-end` must equal one of the article's Swift blocks
// (DocumentationSampleTests checks).
struct SyncingSamples {
    // sample-begin
    @MainActor
    func startSyncing(_ store: QSStore, server: URL, username: String, password: String) async throws -> QSSync {
        let session = try await QSSyncHTTPTransport.logIn(server: server, username: username, password: password)
        return try await QSSync.attach(to: store, transport: QSSyncHTTPTransport(server: server, token: session.token))
    }
    // sample-end

    // sample-begin
    @MainActor
    func syncNow(_ sync: QSSync) async {
        do {
            let report = try await sync.sync()
            print("sent \(report.pushedObjects), received \(report.pulledObjects)")
        } catch {
            // Nothing is lost: what was not sent stays queued for the next sync.
            print("sync failed: \(error)")
        }
    }
    // sample-end

    // sample-begin
    @MainActor
    func attachAfterAnUpdate(_ store: QSStore, transport: any QSSyncTransport) async throws -> QSSync {
        let changes = QSSyncSchemaChanges(renamed: ["cards": ["estimate": "points"]], removed: ["cards": ["color"]])
        return try await QSSync.attach(to: store, transport: transport, schemaChanges: changes)
    }
    // sample-end

    // sample-begin
    @MainActor
    func showPhoto(of noteID: Int64, in store: QSStore, sync: QSSync) async throws -> Data? {
        try await sync.loadBlob("photo", of: .integer(noteID), in: "notes")
        let rows = try await store.fetchRows("SELECT photo FROM notes WHERE uniqueID = ?", [.integer(noteID)])
        guard case .blob(let bytes)? = rows.first?.first else { return nil }
        return bytes
    }
    // sample-end

    // sample-begin
    @MainActor
    func shareGroceries(_ store: QSStore, sync: QSSync) async throws {
        let family = try await sync.createGroup(named: "Family")
        try await sync.addMember("bob", to: family.id)
        try await store.write { db in
            try db.execute("INSERT INTO lists (uniqueID, name, team) VALUES (?, ?, ?)", [.integer(1), .text("Groceries"), .text(family.id)])
        }.committed()
        try await sync.sync()
    }
    // sample-end

    // sample-begin
    @MainActor
    func watchForSyncedChanges(in store: QSStore) async {
        for await change in store.changes where change.source == .sync {
            print("sync changed", change.typeNames.sorted())
        }
    }
    // sample-end
}
