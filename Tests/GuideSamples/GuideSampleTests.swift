import Foundation
import QSData
import Testing

@Suite struct GuideSampleTests {
    @MainActor
    @Test func theGuideSamplesRun() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qsdata-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { Self.remove(folder) }
        let store = try await Guide().openStore(at: folder.appendingPathComponent("notes.sqlite"))
        try await store.execute("INSERT INTO notes (uniqueID, text) VALUES (7, 'about swift')")
        let note = try #require(try await store.fetch(Note.self, id: 7))
        try await Guide.use(store, note: note, ids: [7])
        #expect(try await store.fetchAll(Note.self).isEmpty)
        try await store.close()
    }

    static func remove(_ folder: URL) {
        do { try FileManager.default.removeItem(at: folder) } catch { Issue.record(error) }
    }
}
