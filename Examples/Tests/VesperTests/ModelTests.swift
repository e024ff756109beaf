import ExampleTestSupport
import Foundation
import QSData
import Testing
@testable import VesperCore

@MainActor
@Suite struct ModelTests {
    /// The repository root (Examples/Tests/VesperTests/ModelTests.swift is four levels down).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["Vesper.plist", "Vesper.sql", "VesperMigrations/1-full-text-search.sql"])
    func bundledCopyIsIdenticalToDataModels(_ name: String) throws {
        let canonical = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent("DataModels/\(name)"))
        let bundled = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent("Examples/Vesper/VesperCore/Resources/\(name)"))
        #expect(bundled == canonical, "Examples/Vesper/VesperCore/Resources/\(name) differs from DataModels/\(name): copy it over")
    }

    @Test func theBundledMigrationsAreExactlyTheCanonicalOnes() throws {
        let canonical = try FileManager.default.contentsOfDirectory(
            atPath: Self.repositoryRoot.appendingPathComponent("DataModels/VesperMigrations").path).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: VesperResources.migrationsURL.path).sorted() == canonical)
    }

    @Test func modelDeclaresVespersFourTypes() throws {
        let model = try VesperResources.model()
        #expect(Set(model.objectTypes.keys) == ["VSNote", "VSTimelineNote", "VSTag", "VSAttachment"])
        let note = try #require(model["VSNote"])
        #expect(note.properties.count == 14)
        #expect(note.uniqued)
        #expect(Set(note.relationships.map(\.name)) == ["tags", "attachments"])
        #expect(model["VSTimelineNote"]?.properties.count == 6)
        #expect(model["VSTimelineNote"]?.table == "notes")
        let tag = try #require(model["VSTag"])
        #expect(tag.cachePermanently && tag.fetchAllAtStartup && tag.uniqued)
        let attachment = try #require(model["VSAttachment"])
        #expect(attachment.immutable && !attachment.uniqued)
    }

    @Test func storeOpensAndTheModelMatchesTheSchema() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        #expect(try await vesper.store.count(VSNote.self) == 0)
        try await expectIntegrity(vesper)
        try await vesper.close()
        // Opening again validates the existing database against the model.
        let reopened = try await openController(folder)
        try await expectIntegrity(reopened)
        try await reopened.close()
    }

    @Test func lookupTablesAreIndexedOnTheirNoteColumn() async throws {
        let folder = try TestFolder()
        let vesper = try await openController(folder)
        for table in ["tagsNotesLookup", "attachmentsNotesLookup"] {
            let indexes = try await vesper.store.fetchRows("SELECT name FROM pragma_index_list(?)", [.text(table)])
            var indexedColumns: [String] = []
            for case .text(let index)? in indexes.map(\.first) {
                let columns = try await vesper.store.fetchRows("SELECT name FROM pragma_index_info(?)", [.text(index)])
                if case .text(let first)? = columns.first?.first { indexedColumns.append(first) }
            }
            #expect(indexedColumns.contains("noteID"), "\(table) has no index starting with noteID")
        }
        try await expectIntegrity(vesper)
        try await vesper.close()
    }

    @Test func imageHeadersGiveTypeAndSize() {
        #expect(VSImageInfo(data: SampleImages.png) == VSImageInfo(data: SampleImages.png))
        #expect(VSImageInfo(data: SampleImages.png)?.mimeType == "image/png")
        let png = VSImageInfo(data: SampleImages.png640x480)
        #expect(png?.mimeType == "image/png" && png?.width == 640 && png?.height == 480)
        let jpeg = VSImageInfo(data: SampleImages.jpeg128x96)
        #expect(jpeg?.mimeType == "image/jpeg" && jpeg?.width == 128 && jpeg?.height == 96)
        #expect(VSImageInfo(data: SampleImages.text) == nil)
        #expect(VSImageInfo(data: Data()) == nil)
        #expect(VSImageInfo(data: SampleImages.jpeg128x96.prefix(22)) == nil)
    }

    @Test func truncatedTextCollapsesWhitespaceAndCuts() {
        #expect(VSNoteText.truncated("  Hello\n\n  world  ") == "Hello world")
        #expect(VSNoteText.truncated(" \n ") == nil)
        let long = String(repeating: "a", count: 300)
        let truncated = VSNoteText.truncated(long)
        #expect(truncated?.count == VSNoteText.truncatedLength + 1)
        #expect(truncated?.hasSuffix("…") == true)
    }

    @Test func linksAreFoundInOrderWithoutSentencePunctuation() {
        let text = "See https://inessential.com/2014/05/. Also (http://example.com/a?b=1), and https://inessential.com/2014/05/ again; ftp://no"
        #expect(VSNoteText.links(in: text) == ["https://inessential.com/2014/05/", "http://example.com/a?b=1"])
        #expect(VSNoteText.links(in: "no links here") == [])
    }

    @Test func tagIDCollapsesWhitespaceAndLowercases() {
        #expect(VSTag.uniqueID(forName: "Ice Cream") == "ice cream")
        #expect(VSTag.uniqueID(forName: "  ice \t cream ") == "ice cream")
        #expect(VSTag.uniqueID(forName: "ICE CREAM") == "ice cream")
        #expect(VSTag.cleanedName("  Ice   Cream ") == "Ice Cream")
    }
}
