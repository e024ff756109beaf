import CommandLineTool
import ExampleTestSupport
import Foundation
import Testing
import VesperCommands
import VesperCore

/// Input a person (or a script) can get wrong: repeated IDs, over-long tag names, paths that
/// are not what they look like.
@MainActor
@Suite struct HostileInputTests {
    @Test func aRepeatedIDIsCountedOnce() async throws {
        let folder = try TestFolder()
        let added = try await folder.vesper("add", "Buy milk", "--json").decoded(VesperJSON.Note.self)
        let archived = await folder.vesper("archive", "\(added.id)", "\(added.id)")
        #expect(archived.exitCode == 0, "\(archived.errorOutput)")
        #expect(archived.output.hasPrefix("Archived 1 note"), "\(archived.output)")
        let deleted = await folder.vesper("delete", "\(added.id)", "\(added.id)", "\(added.id)")
        #expect(deleted.output == "Deleted 1 note.\n")
        #expect(try folder.snapshot()["deletedNotes"]?.count == 1)
    }

    @Test func tagNamesAreLimitedTo256Characters() async throws {
        let folder = try TestFolder()
        let longest = String(repeating: "é", count: VSTag.maximumNameLength)
        #expect(await folder.vesper("add", "fits", "--tag", longest).exitCode == 0)
        let before = try folder.snapshot()
        let refused = await folder.vesper("add", "too long", "--tag", longest + "x")
        #expect(refused.exitCode == 1)
        #expect(refused.errorOutput == "vesper: A tag name can be at most 256 characters long.\n")
        #expect(try folder.snapshot() == before)
    }

    @Test func aDatabasePathThatWasNotValidUTF8IsRefused() async throws {
        let folder = try TestFolder()
        let path = folder.url.appendingPathComponent("notes\u{FFFD}.sqlite").path
        let refused = await Vesper.runCapturing(["list", "--database", path], standardInput: nil)
        #expect(refused.exitCode == 1)
        #expect(refused.errorOutput.contains("not valid UTF-8"), "\(refused.errorOutput)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
