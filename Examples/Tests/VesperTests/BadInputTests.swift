import CommandLineTool
import ExampleTestSupport
import Foundation
import Testing
import VesperCommands
@testable import VesperCore

/// Refused input: a clear one-line error, a non-zero exit, and nothing changed in the database.
@MainActor
@Suite struct BadInputTests {
    /// A folder with one note (tagged "Food") in its database.
    func folderWithOneNote() async throws -> (TestFolder, Int64) {
        let folder = try TestFolder()
        let result = await folder.vesper("add", "The one note", "--tag", "Food", "--json")
        return (folder, try result.decoded(VesperJSON.Note.self).id)
    }

    /// Runs `arguments`, expects it to fail with `message`, and checks nothing changed.
    func expectRefusal(_ folder: TestFolder, _ arguments: String..., message: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = try folder.snapshot()
        let files = folder.attachmentFiles()
        let result = await Vesper.runCapturing(arguments + ["--database", folder.databaseURL.path], standardInput: nil)
        #expect(result.exitCode != 0, sourceLocation: sourceLocation)
        #expect(result.output.isEmpty, sourceLocation: sourceLocation)
        #expect(result.errorOutput == "vesper: \(message)\n", sourceLocation: sourceLocation)
        #expect(result.errorOutput.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
        #expect(try folder.snapshot() == before, "the database changed", sourceLocation: sourceLocation)
        #expect(folder.attachmentFiles() == files, "the attachments folder changed", sourceLocation: sourceLocation)
    }

    @Test func unknownNoteID() async throws {
        let (folder, _) = try await folderWithOneNote()
        for command in ["show", "archive", "unarchive", "delete"] {
            try await expectRefusal(folder, command, "42424242", message: "There is no note with ID 42424242.")
        }
        try await expectRefusal(folder, "edit", "42424242", "text", message: "There is no note with ID 42424242.")
        try await expectRefusal(folder, "tag", "42424242", "X", message: "There is no note with ID 42424242.")
    }

    @Test func deleteWithOneUnknownIDDeletesNothing() async throws {
        let (folder, id) = try await folderWithOneNote()
        try await expectRefusal(folder, "delete", String(id), "42424242", message: "There is no note with ID 42424242.")
    }

    @Test func emptyText() async throws {
        let (folder, id) = try await folderWithOneNote()
        try await expectRefusal(folder, "add", " \n\t", message: "A note needs some text.")
        try await expectRefusal(folder, "add", message: "A note needs some text.")
        try await expectRefusal(folder, "edit", String(id), "   ", message: "A note needs some text.")
        try await expectRefusal(folder, "add", "text", "--tag", "  ", message: "A tag needs a name.")
    }

    @Test func tagProblems() async throws {
        let (folder, id) = try await folderWithOneNote()
        try await expectRefusal(folder, "untag", String(id), "Work", message: "Note \(id) has no tag named \"Work\".")
        try await expectRefusal(
            folder, "rename-tag", "food", "Meals",
            message: "Can't rename the tag \"Food\" to \"Meals\": a tag's name may change only in case. Tag the notes with \"Meals\" instead.")
        try await expectRefusal(folder, "rename-tag", "Drinks", "DRINKS", message: "There is no tag named \"Drinks\".")
    }

    @Test func unreadableAttachmentFile() async throws {
        let (folder, id) = try await folderWithOneNote()
        let missing = folder.url.appendingPathComponent("nowhere.png").path
        let before = try folder.snapshot()
        let result = await folder.vesper("attach", String(id), missing)
        #expect(result.exitCode == 1)
        #expect(result.errorOutput.hasPrefix("vesper: Can't read \(missing): "))
        #expect(try folder.snapshot() == before)
        #expect(folder.attachmentFiles().isEmpty)
    }

    @Test func aPictureWhoseHeaderClaimsAnImpossibleSizeIsRefused() async throws {
        let (folder, id) = try await folderWithOneNote()
        // 60 bytes whose header claims 2,000,000 × 1 pixels: the sync server would refuse the note.
        var header = SampleImages.png640x480
        header.replaceSubrange(16..<24, with: [0x00, 0x1E, 0x84, 0x80, 0x00, 0x00, 0x00, 0x01])
        header.append(Data(repeating: 0, count: 60 - header.count))
        let wide = try folder.file("wide.png", header)
        try await expectRefusal(
            folder, "attach", String(id), wide.path,
            message: "\(wide.path) claims to be 2000000×1 pixels; a picture can be at most 1000000 pixels wide and high.")
        #expect(folder.attachmentFiles().isEmpty)
    }

    @Test func nonImageAttachment() async throws {
        let (folder, id) = try await folderWithOneNote()
        let text = try folder.file("notes.txt", SampleImages.text)
        try await expectRefusal(
            folder, "attach", String(id), text.path,
            message: "\(text.path) is not a PNG or JPEG picture; only pictures can be attached.")
    }

    @Test func typedErrorsFromTheAppCore() async throws {
        let (folder, id) = try await folderWithOneNote()
        let vesper = try await openController(folder)
        let note = try await vesper.note(id: id)
        await #expect(throws: VesperError.noteNotFound(7)) { _ = try await vesper.note(id: 7) }
        #expect(throws: VesperError.emptyText) { try vesper.userDidUpdateText(" ", of: note) }
        let textFile = try folder.file("t.txt", SampleImages.text)
        #expect(throws: VesperError.unsupportedAttachment(path: textFile.path)) {
            try vesper.userDidAddAttachment(fileAt: textFile, to: note)
        }
        #expect(note.text == "The one note" && note.attachments.isEmpty)
        try await expectIntegrity(vesper)
        try await vesper.close()
    }

    @Test func databaseInAMissingFolder() async throws {
        let folder = try TestFolder()
        let path = folder.url.appendingPathComponent("missing/vesper.sqlite").path
        let result = await Vesper.runCapturing(["list", "--database", path])
        #expect(result.exitCode == 1)
        #expect(result.errorOutput == "vesper: The folder for the database does not exist: \(folder.url.path)/missing.\n")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("missing").path))
        await #expect(throws: VesperError.databaseFolderMissing(path: folder.url.path + "/missing")) {
            _ = try await VSDataController.open(at: URL(fileURLWithPath: path))
        }
    }

    @Test func databaseUnderARegularFile() async throws {
        // Root ignores permissions, so a path whose folder is a regular file stands in for an
        // unwritable folder: it fails for every user.
        let folder = try TestFolder()
        let file = try folder.file("plain.txt", SampleImages.text)
        let result = await Vesper.runCapturing(["add", "hello", "--database", file.path + "/vesper.sqlite"])
        #expect(result.exitCode == 1)
        #expect(result.errorOutput == "vesper: The folder for the database does not exist: \(file.path).\n")
        #expect(try Data(contentsOf: file) == SampleImages.text)
    }

    @Test(.enabled(if: getuid() != 0, "root ignores file permissions"))
    func databaseInAReadOnlyFolder() async throws {
        let folder = try TestFolder()
        let readOnly = folder.url.appendingPathComponent("readonly")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: readOnly.path) }
        let result = await Vesper.runCapturing(["add", "hello", "--database", readOnly.appendingPathComponent("vesper.sqlite").path])
        #expect(result.exitCode != 0)
        #expect(result.errorOutput.hasPrefix("vesper: "))
        #expect(result.errorOutput.split(separator: "\n").count == 1)
    }

    @Test func fileThatIsNotADatabase() async throws {
        let folder = try TestFolder()
        try SampleImages.text.write(to: folder.databaseURL)
        let result = await folder.vesper("list")
        #expect(result.exitCode == 1)
        #expect(result.errorOutput.hasPrefix("vesper: "))
        #expect(try Data(contentsOf: folder.databaseURL) == SampleImages.text)
    }

    @Test func badArgumentsAreUsageErrors() async throws {
        let folder = try TestFolder()
        let notANumber = await folder.vesper("show", "abc")
        #expect(notANumber.exitCode == 64 && notANumber.errorOutput.contains("abc"))
        let noNames = await folder.vesper("tag", "1234")
        #expect(noNames.exitCode == 64 && noNames.errorOutput.contains("Give at least one tag name."))
        let unknown = await Vesper.runCapturing(["frobnicate"])
        #expect(unknown.exitCode == 64)
    }
}
