import Foundation
import QSData
import Testing
import TestSupport

@Suite struct ReadmeSampleTests {
    @MainActor
    @Test func theReadmeTourRuns() async throws {
        let folder = TestRunFolder.newFolder("qsdata-samples")
        let resources = try #require(Bundle.module.resourceURL)
        let store = try await Readme.tour(
            databaseURL: folder.appendingPathComponent("notes.sqlite"),
            modelURL: resources.appendingPathComponent("Notes.plist"),
            schemaURL: resources.appendingPathComponent("Notes.sql"))
        let notes = try await store.fetchAll(Note.self, orderBy: "uniqueID")
        // The note saved and archived, then the 10,000 imported in the background.
        #expect(notes.map(\.uniqueID) == [1_000] + Array(2_000..<12_000))
        #expect(notes.first?.archived == true)
        #expect(notes.dropFirst().allSatisfy { !$0.archived })
        try await store.close()
    }
}
