import CommandLineTool
import ExampleTestSupport
import Foundation
import QSData
import Testing
import VesperCommands
import VesperCore

/// Vesper's files in a test folder.
extension TestFolder {
    var databaseURL: URL { url.appendingPathComponent("vesper.sqlite") }

    /// Runs `vesper` in-process against this folder's database. After a command that succeeded,
    /// the database must be consistent.
    @MainActor
    func vesper(_ arguments: String..., stdin: String? = nil) async -> CommandRun {
        let result = await Vesper.runCapturing(arguments + ["--database", databaseURL.path], standardInput: stdin)
        if result.exitCode == 0, FileManager.default.fileExists(atPath: databaseURL.path) {
            do {
                let vesper = try await VSDataController.open(at: databaseURL)
                try await expectIntegrity(vesper)
                try await vesper.close()
            } catch {
                Issue.record("after vesper \(arguments.joined(separator: " ")): \(error)")
            }
        }
        return result
    }

    /// Every row of every Vesper table, to show that a refused command changed nothing.
    func snapshot() throws -> [String: [[SQLValue]]] {
        let connection = try SQLiteConnection(path: databaseURL.path)
        var tables: [String: [[SQLValue]]] = [:]
        for table in ["notes", "tags", "attachments", "deletedNotes", "tagsNotesLookup", "attachmentsNotesLookup"] {
            tables[table] = try connection.fetchRows("SELECT * FROM \(table) ORDER BY rowid")
        }
        return tables
    }

    /// The file names in the attachments folder.
    func attachmentFiles() -> [String] {
        let folder = url.appendingPathComponent("attachments")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}

extension CommandRun {
    /// The output decoded as Vesper's JSON.
    func decoded<Value: Decodable>(_ type: Value.Type) throws -> Value {
        #expect(exitCode == 0, "vesper failed: \(errorOutput)")
        return try VesperJSON.decoder().decode(type, from: Data(output.utf8))
    }
}

/// Picture headers, as small as the parser needs.
enum SampleImages {
    /// A 1×1 PNG, complete.
    static let png = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
        0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
        0x42, 0x60, 0x82,
    ])

    /// The start of a 640×480 PNG (signature and IHDR).
    static let png640x480 = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x02, 0x80, 0x00, 0x00, 0x01, 0xE0, 0x08, 0x02, 0x00, 0x00, 0x00,
    ])

    /// The start of a 128 wide, 96 high baseline JPEG: SOI, a JFIF APP0 segment, then SOF0.
    static let jpeg128x96 = Data([
        0xFF, 0xD8,
        0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
        0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x60, 0x00, 0x80, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
        0xFF, 0xD9,
    ])

    static let text = Data("Just some notes, not a picture.\n".utf8)
}

/// Expects the store's integrity check to find nothing: no lookup row without its parent or
/// child, and nothing SQLite's own checks report.
@MainActor
func expectIntegrity(_ vesper: VSDataController, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let report = try await vesper.store.checkIntegrity()
    #expect(report.isClean, "\(report)", sourceLocation: sourceLocation)
}

@MainActor
func openController(_ folder: TestFolder, clock: TestClock? = nil) async throws -> VSDataController {
    let vesper = try await VSDataController.open(at: folder.databaseURL)
    if let clock { vesper.now = { clock.date } }
    return vesper
}
