import Foundation
import Testing

/// The README's and every DocC article's Swift samples are compiled code. The convention:
///
/// - Every fenced block names its language (`swift`, `xml`, `sql`, `sh`, `text`).
/// - A `swift` block equals, without its `import` lines, a `sample-begin`…`sample-end` region of
///   the document's sample files (test targets that build, and for the README and the guide run,
///   against the model the document shows), and every region is shown by one block.
/// - A `swift` block that can't compile on its own — a package-manifest fragment, an illustration
///   of generated code whose bodies are elided — follows a line `<!-- not compiled: reason -->`,
///   which neither DocC nor GitHub shows.
///
/// The README's and the guide's XML and SQL blocks equal the model and schema their samples
/// build and run with; another article's XML blocks are parts of the model its samples build with.
@Suite struct SampleDriftTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // DocumentationSampleTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
    static let tests = root.appendingPathComponent("Tests")
    static let articles = "Sources/QSData/QSData.docc"

    struct Document: CustomTestStringConvertible, Sendable {
        /// The document, from the repository's root.
        let path: String
        /// The files holding its compiled samples, from `Tests`.
        var samples: [String] = []
        /// The folder, under `Tests`, of the `Notes.plist` and `Notes.sql` its blocks show.
        var resources: String?
        /// The data model, from `Tests`, that holds each of its XML blocks.
        var model: String?

        var testDescription: String { path }
    }

    static let documents = [
        Document(path: "README.md", samples: ["ReadmeSamples/ReadmeSamples.swift"], resources: "ReadmeSamples"),
        Document(path: "\(articles)/UsingQSDataInYourApp.md", samples: ["GuideSamples/GuideSamples.swift"], resources: "GuideSamples"),
        Document(path: "\(articles)/DeleteRules.md", samples: ["ArticleSamples/DeleteRulesSamples.swift"],
                 model: "ArticleSamples/DeleteRules.plist"),
        Document(path: "\(articles)/HandlingErrors.md", samples: ["ArticleSamples/HandlingErrorsSamples.swift"]),
        Document(path: "\(articles)/KeepingScreensCurrent.md", samples: ["ArticleSamples/KeepingScreensCurrentSamples.swift"]),
        Document(path: "\(articles)/SearchingText.md", samples: ["ArticleSamples/SearchingTextSamples.swift"]),
        Document(path: "\(articles)/HowTheStoreWorks.md", samples: ["ArticleSamples/HowTheStoreWorksSamples.swift"]),
        Document(path: "\(articles)/SyncingYourAppsData.md", samples: ["ArticleSamples/SyncingSamples.swift"]),
        Document(path: "\(articles)/Migrations.md"),
        Document(path: "\(articles)/QSData.md"),
        Document(path: "\(articles)/QSStore.md"),
    ]

    @Test func everyArticleIsChecked() throws {
        let folder = Self.root.appendingPathComponent(Self.articles)
        let articles = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }
        let checked = Self.documents.map(\.path).filter { $0.hasPrefix(Self.articles) }.map { ($0 as NSString).lastPathComponent }
        #expect(Set(articles) == Set(checked), "list each article in SampleDriftTests.documents, with its sample files")
    }

    @Test(arguments: documents)
    func everyBlockNamesItsLanguage(_ document: Document) throws {
        for block in try Self.blocks(of: document) {
            #expect(!block.language.isEmpty, "\(document.path):\(block.line): name the block's language (`text` for plain text)")
            if block.notCompiledReason != nil {
                #expect(block.language == "swift", "\(document.path):\(block.line): only Swift blocks are compiled, so only they are marked")
            }
        }
    }

    @Test(arguments: documents)
    func everySwiftBlockIsCompiledOrMarked(_ document: Document) throws {
        let swift = try Self.blocks(of: document).filter { $0.language == "swift" }
        var regions = try document.samples.flatMap { file in
            MarkdownCodeBlocks.regions(in: try String(contentsOf: Self.tests.appendingPathComponent(file), encoding: .utf8))
        }
        for block in swift {
            if let reason = block.notCompiledReason {
                #expect(!reason.isEmpty, "\(document.path):\(block.line): say why the block is not compiled")
                continue
            }
            let code = MarkdownCodeBlocks.withoutImports(block.text)
            if let region = regions.firstIndex(of: code) {
                regions.remove(at: region)
            } else {
                Issue.record("\(document.path):\(block.line): not compiled in \(document.samples), nor marked `<!-- not compiled: … -->`:\n\(code)")
            }
        }
        #expect(regions.isEmpty, "\(document.samples) has regions \(document.path) no longer shows:\n\(regions.joined(separator: "\n"))")
    }

    @Test(arguments: documents.filter { $0.resources != nil })
    func theModelAndSchemaAreTheOnesTheSamplesRunWith(_ document: Document) throws {
        let blocks = try Self.blocks(of: document)
        let folder = Self.tests.appendingPathComponent(document.resources ?? "")
        for (language, file) in [("xml", "Notes.plist"), ("sql", "Notes.sql")] {
            let resource = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let shown = blocks.filter { $0.language == language }.map(\.text)
            #expect(shown == [resource], "\(document.path)'s \(language) block differs from \(folder.lastPathComponent)/\(file)")
        }
    }

    @Test(arguments: documents.filter { $0.model != nil })
    func everyXMLBlockIsPartOfTheModelTheSamplesBuildWith(_ document: Document) throws {
        let model = try String(contentsOf: Self.tests.appendingPathComponent(document.model ?? ""), encoding: .utf8)
        for block in try Self.blocks(of: document) where block.language == "xml" {
            #expect(("\n" + Self.trimmedLines(model)).contains("\n" + Self.trimmedLines(block.text)),
                    "\(document.path):\(block.line): the block is not part of \(document.model ?? "")")
        }
    }

    /// The text's lines without their indentation, for comparing a part of a plist with the whole.
    static func trimmedLines(_ text: String) -> String {
        text.split(separator: "\n").map { $0.trimmingPrefix(while: \.isWhitespace) + "\n" }.joined()
    }

    static func blocks(of document: Document) throws -> [CodeBlock] {
        MarkdownCodeBlocks.blocks(in: try String(contentsOf: root.appendingPathComponent(document.path), encoding: .utf8))
    }
}
