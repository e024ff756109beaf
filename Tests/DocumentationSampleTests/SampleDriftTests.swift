import Foundation
import QSData
import Testing

/// The README's and the DocC guide's samples are the code in this target: every Swift block of
/// those documents equals a compiled `sample-begin`…`sample-end` region here, and every XML and
/// SQL block equals the resource the samples run with. Package-manifest fragments are the one
/// exception (they only make sense inside an app's Package.swift).
@Suite struct SampleDriftTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // DocumentationSampleTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    struct Document: CustomTestStringConvertible, Sendable {
        let path: String
        let samples: String
        let resources: String

        var testDescription: String { path }
    }

    static let documents = [
        Document(path: "README.md", samples: "ReadmeSamples.swift", resources: "Resources/README"),
        Document(
            path: "Sources/QSData/QSData.docc/UsingQSDataInYourApp.md", samples: "GuideSamples.swift",
            resources: "Resources"),
    ]

    @Test(arguments: documents)
    func everySwiftBlockIsCompiledHere(_ document: Document) throws {
        let markdown = try String(contentsOf: Self.root.appendingPathComponent(document.path), encoding: .utf8)
        let source = try String(contentsOf: Self.here.appendingPathComponent(document.samples), encoding: .utf8)
        let regions = Self.regions(in: source)
        let swiftBlocks = Self.blocks(in: markdown, language: "swift").filter { !$0.contains(".package(") }
        #expect(!swiftBlocks.isEmpty)
        for block in swiftBlocks {
            let code = Self.withoutImports(block)
            #expect(regions.contains(code), "not compiled in \(document.samples):\n\(code)")
        }
        #expect(regions.count == swiftBlocks.count, "\(document.samples) has regions the document no longer shows")
    }

    @Test(arguments: documents)
    func theModelAndSchemaAreTheOnesTheSamplesRunWith(_ document: Document) throws {
        let markdown = try String(contentsOf: Self.root.appendingPathComponent(document.path), encoding: .utf8)
        let folder = Self.here.appendingPathComponent(document.resources)
        for (language, file) in [("xml", "Notes.plist"), ("sql", "Notes.sql")] {
            let blocks = Self.blocks(in: markdown, language: language)
            let resource = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(blocks == [resource], "\(document.path)'s \(language) block differs from \(document.resources)/\(file)")
        }
    }

    @MainActor
    @Test func theReadmeTourRuns() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qsdata-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { Self.remove(folder) }
        let resources = try #require(Bundle.module.url(forResource: "README", withExtension: nil))
        let store = try await Readme.tour(
            databaseURL: folder.appendingPathComponent("notes.sqlite"),
            modelURL: resources.appendingPathComponent("Notes.plist"),
            schemaURL: resources.appendingPathComponent("Notes.sql"))
        let notes = try await store.fetchAll(Readme.Note.self)
        #expect(notes.map(\.uniqueID) == [1_000])
        #expect(notes.first?.archived == true)
        try await store.close()
    }

    @MainActor
    @Test func theGuideSamplesRun() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qsdata-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { Self.remove(folder) }
        let store = try await Guide().openStore(at: folder.appendingPathComponent("notes.sqlite"))
        try await store.execute("INSERT INTO notes (uniqueID, text) VALUES (7, 'about swift')")
        let note = try #require(try await store.fetch(Guide.Note.self, id: 7))
        try await Guide.use(store, note: note, ids: [7])
        #expect(try await store.fetchAll(Guide.Note.self).isEmpty)
        try await store.close()
    }

    // MARK: Reading the documents

    /// The text of every fenced block in `language`.
    static func blocks(in markdown: String, language: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append((current ?? []).map { $0 + "\n" }.joined())
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Every region between `// sample-begin` and `// sample-end`, with the region's common
    /// indentation removed.
    static func regions(in source: String) -> [String] {
        var regions: [String] = []
        var current: [Substring]?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "// sample-begin" {
                current = []
            } else if trimmed == "// sample-end", let lines = current {
                let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }
                    .map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
                regions.append(lines.map { ($0.count >= indent ? $0.dropFirst(indent) : "") + "\n" }.joined())
                current = nil
            } else {
                current?.append(line)
            }
        }
        return regions
    }

    /// The block without its leading `import` lines (the sample files import at the top).
    static func withoutImports(_ block: String) -> String {
        var lines = block.split(separator: "\n", omittingEmptySubsequences: false)
        while let first = lines.first, first.hasPrefix("import ") || (first.isEmpty && lines.count > 1) {
            lines.removeFirst()
        }
        return lines.joined(separator: "\n")
    }

    static func remove(_ folder: URL) {
        do { try FileManager.default.removeItem(at: folder) } catch { Issue.record(error) }
    }
}
