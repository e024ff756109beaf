import Foundation
import QSData
import Testing

/// The README's and the DocC guide's samples are compiled code: every Swift block of those
/// documents equals a `sample-begin`…`sample-end` region of the `ReadmeSamples` or `GuideSamples`
/// test target (built with the model plugin, as the documents say), and every XML and SQL block
/// equals the model and schema those targets build and run with. Two kinds of block are not
/// compiled: package-manifest fragments (they only make sense inside an app's Package.swift) and
/// illustrations of generated code, whose bodies are elided with `{ … }`.
@Suite struct SampleDriftTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // DocumentationSampleTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    struct Document: CustomTestStringConvertible, Sendable {
        let path: String
        let samples: String
        let resources: String

        var testDescription: String { path }
    }

    static let documents = [
        Document(path: "README.md", samples: "ReadmeSamples/ReadmeSamples.swift", resources: "ReadmeSamples"),
        Document(
            path: "Sources/QSData/QSData.docc/UsingQSDataInYourApp.md", samples: "GuideSamples/GuideSamples.swift",
            resources: "GuideSamples"),
    ]

    @Test(arguments: documents)
    func everySwiftBlockIsCompiledHere(_ document: Document) throws {
        let markdown = try String(contentsOf: Self.root.appendingPathComponent(document.path), encoding: .utf8)
        let source = try String(contentsOf: Self.tests.appendingPathComponent(document.samples), encoding: .utf8)
        let regions = Self.regions(in: source)
        let swiftBlocks = Self.blocks(in: markdown, language: "swift").filter { !$0.contains(".package(") && !$0.contains("{ … }") }
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
        let folder = Self.tests.appendingPathComponent(document.resources)
        for (language, file) in [("xml", "Notes.plist"), ("sql", "Notes.sql")] {
            let blocks = Self.blocks(in: markdown, language: language)
            let resource = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(blocks == [resource], "\(document.path)'s \(language) block differs from \(document.resources)/\(file)")
        }
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
