import CommandLineTool
import ExampleTestSupport
import Foundation
import Testing
import VesperCommands

/// Every `vesper` command, end to end on a temporary database, run in-process.
@MainActor
@Suite struct CLITests {
    /// Adds a note and returns its ID, read back from the JSON output.
    func add(_ folder: TestFolder, _ arguments: String...) async throws -> Int64 {
        let result = await Vesper.runCapturing(["add"] + arguments + ["--json", "--database", folder.databaseURL.path], standardInput: nil)
        return try result.decoded(VesperJSON.Note.self).id
    }

    @Test func addWithTagsThenShow() async throws {
        let folder = try TestFolder()
        let added = await folder.vesper("add", "Buy milk", "--tag", "Errands", "--tag", "home")
        #expect(added.exitCode == 0 && added.errorOutput.isEmpty)
        #expect(added.output.hasPrefix("Added note ") && added.output.contains("tagged Errands, home"))

        let id = try await add(folder, "Call Mario https://example.com", "--tag", "Phone")
        let note = try await folder.vesper("show", String(id), "--json").decoded(VesperJSON.Note.self)
        #expect(note.text == "Call Mario https://example.com")
        #expect(note.tags == ["Phone"] && note.links == ["https://example.com"] && !note.archived)

        let text = await folder.vesper("show", String(id))
        #expect(text.output.contains("Note \(id)") && text.output.contains("Tags: Phone") && text.output.contains("Call Mario"))
    }

    @Test func addReadsStandardInputWhenThereIsNoTextArgument() async throws {
        let folder = try TestFolder()
        let result = await folder.vesper("add", "--json", stdin: "From a pipe\nsecond line\n")
        let note = try result.decoded(VesperJSON.Note.self)
        #expect(note.text == "From a pipe\nsecond line")
    }

    @Test func listShowsNewestFirstAndHidesArchivedUnlessAsked() async throws {
        let folder = try TestFolder()
        let first = try await add(folder, "first")
        let second = try await add(folder, "second")
        let third = try await add(folder, "third")
        #expect(await folder.vesper("archive", String(second)).output == "Archived 1 note.\n")

        let visible = try await folder.vesper("list", "--json").decoded([VesperJSON.TimelineNote].self)
        let all = try await folder.vesper("list", "--archived", "--json").decoded([VesperJSON.TimelineNote].self)
        // Notes made in the same instant tie on sortDate; compare as sets where order can't be told apart.
        #expect(Set(visible.map(\.id)) == [first, third])
        #expect(Set(all.map(\.id)) == [first, second, third])
        #expect(all.first { $0.id == second }?.archived == true)
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.sortDate >= $1.sortDate })

        let text = await folder.vesper("list", "--archived")
        #expect(text.output.contains("[archived]") && text.output.split(separator: "\n").count == 3)

        #expect(await folder.vesper("unarchive", String(second)).exitCode == 0)
        #expect(try await folder.vesper("list", "--json").decoded([VesperJSON.TimelineNote].self).count == 3)
    }

    @Test func editReplacesTheText() async throws {
        let folder = try TestFolder()
        let id = try await add(folder, "draft")
        let edited = try await folder.vesper("edit", String(id), "final text", "--json").decoded(VesperJSON.Note.self)
        #expect(edited.text == "final text" && edited.truncatedText == "final text")
        #expect(try await folder.vesper("show", String(id), "--json").decoded(VesperJSON.Note.self).text == "final text")
    }

    @Test func tagAndUntagKeepOrder() async throws {
        let folder = try TestFolder()
        let id = try await add(folder, "note", "--tag", "One")
        let tagged = try await folder.vesper("tag", String(id), "Two", "one", "Three", "--json").decoded(VesperJSON.Note.self)
        #expect(tagged.tags == ["One", "Two", "Three"])
        let untagged = try await folder.vesper("untag", String(id), "TWO", "--json").decoded(VesperJSON.Note.self)
        #expect(untagged.tags == ["One", "Three"])
        #expect(await folder.vesper("untag", String(id), "One", "Three").output == "Note \(id) tags: none.\n")
    }

    @Test func tagsListsNoteCounts() async throws {
        let folder = try TestFolder()
        _ = try await add(folder, "a", "--tag", "Ice Cream", "--tag", "Food")
        _ = try await add(folder, "b", "--tag", "ice  cream")
        let tags = try await folder.vesper("tags", "--json").decoded([VesperJSON.Tag].self)
        #expect(tags.map(\.name) == ["Food", "Ice Cream"])
        #expect(tags.map(\.noteCount) == [1, 2])
        #expect(tags.map(\.id) == ["food", "ice cream"])
        let text = await folder.vesper("tags")
        #expect(text.output == "Food       1 note\nIce Cream  2 notes\n")
    }

    @Test func renameTagChangesCaseOnEveryNote() async throws {
        let folder = try TestFolder()
        let first = try await add(folder, "a", "--tag", "ice cream")
        let second = try await add(folder, "b", "--tag", "Food", "--tag", "ice cream")
        let renamed = await folder.vesper("rename-tag", "ice cream", "Ice Cream")
        #expect(renamed.output == "Renamed the tag to \"Ice Cream\" on 2 notes.\n")
        for (id, tags) in [(first, ["Ice Cream"]), (second, ["Food", "Ice Cream"])] {
            #expect(try await folder.vesper("show", String(id), "--json").decoded(VesperJSON.Note.self).tags == tags)
        }
        #expect(try await folder.vesper("tags", "--json").decoded([VesperJSON.Tag].self).count == 2)
    }

    @Test func deleteRecordsDeletedNotes() async throws {
        let folder = try TestFolder()
        let first = try await add(folder, "a", "--tag", "X")
        let second = try await add(folder, "b", "--tag", "X")
        let kept = try await add(folder, "c")
        let deleted = try await folder.vesper("delete", String(first), String(second), "--json").decoded(VesperJSON.Deleted.self)
        #expect(deleted.deleted == [first, second])
        let export = try await folder.vesper("export").decoded(VesperJSON.Export.self)
        #expect(export.notes.map(\.id) == [kept])
        #expect(export.deletedNoteIDs == [first, second].sorted())
        let snapshot = try folder.snapshot()
        #expect(snapshot["tagsNotesLookup"] == [])
    }

    @Test func searchFindsTextIgnoringCaseIncludingArchived() async throws {
        let folder = try TestFolder()
        let pistachio = try await add(folder, "Pistachio at Mario's")
        _ = try await add(folder, "Groceries")
        let archived = try await add(folder, "More PISTACHIO, 100% of it")
        _ = await folder.vesper("archive", String(archived))
        let found = try await folder.vesper("search", "pistachio", "--json").decoded([VesperJSON.SearchResult].self)
        #expect(Set(found.map(\.note.id)) == [pistachio, archived])
        #expect(Set(found.map(\.snippet)) == ["[Pistachio] at Mario's", "More [PISTACHIO], 100% of it"])
        let percent = try await folder.vesper("search", "100%", "--json").decoded([VesperJSON.SearchResult].self)
        #expect(percent.map(\.note.id) == [archived])
        #expect(await folder.vesper("search", "sorbet").output == "No notes contain \"sorbet\".\n")
        let text = await folder.vesper("search", "mari").output
        #expect(text.hasSuffix("  Pistachio at [Mario]'s\n"), "\(text)")
        // Typed text is never FTS5 syntax: quotes and parentheses are no error.
        #expect(await folder.vesper("search", "\"(pistachio").output.contains("[PISTACHIO]"))
    }

    @Test func attachStoresPNGAndJPEGWithTheirSizes() async throws {
        let folder = try TestFolder()
        let id = try await add(folder, "pictures")
        let png = try await folder.vesper("attach", String(id), try folder.file("a.png", SampleImages.png640x480).path, "--json")
            .decoded(VesperJSON.Attachment.self)
        #expect(png.mimeType == "image/png" && png.width == 640 && png.height == 480)
        #expect(FileManager.default.contents(atPath: try #require(png.path)) == SampleImages.png640x480)
        let jpeg = await folder.vesper("attach", String(id), try folder.file("b.jpg", SampleImages.jpeg128x96).path)
        #expect(jpeg.output == "Attached image/jpeg 128×96 to note \(id).\n")

        let note = try await folder.vesper("show", String(id), "--json").decoded(VesperJSON.Note.self)
        #expect(note.attachments.map(\.mimeType) == ["image/png", "image/jpeg"])
        #expect(note.thumbnailID == png.id)
        #expect(folder.attachmentFiles().count == 2)
    }

    @Test func exportHasEveryNoteWithTagsAndAttachments() async throws {
        let folder = try TestFolder()
        let id = try await add(folder, "exported", "--tag", "B", "--tag", "A")
        _ = await folder.vesper("attach", String(id), try folder.file("a.png", SampleImages.png).path)
        let archived = try await add(folder, "archived too")
        _ = await folder.vesper("archive", String(archived))

        let result = await folder.vesper("export")
        // Plain JSON for any tool, not only for our Decodable types.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let notes = try #require(object["notes"] as? [[String: Any]])
        #expect(notes.count == 2)
        let export = try result.decoded(VesperJSON.Export.self)
        let note = try #require(export.notes.first { $0.id == id })
        #expect(note.tags == ["B", "A"] && note.attachments.count == 1 && note.attachments[0].width == 1)
        #expect(export.notes.first { $0.id == archived }?.archived == true)
        #expect(export.tags.map(\.name) == ["A", "B"])
    }

    @Test func demoTourRunsAndShowsStatementCounts() async throws {
        let result = await Vesper.runCapturing(["demo", "--bulk-count", "50"])
        #expect(result.exitCode == 0, "\(result.errorOutput)")
        #expect(result.output.contains("0 SQL statements"))
        #expect(result.output.contains("deleted them in 3 SQL statements"))
        #expect(result.output.contains("[Party, Ice Cream]"))
        #expect(result.output.contains("refused: Can't rename the tag"))
        #expect(result.output.contains("deletedNotes now holds 50 IDs"))
        #expect(result.output.contains("deleted 50"))
        #expect(result.output.contains("a rename costs it nothing: 1 SQL statement, all the tag's own save, and 0 re-fetches"))
        #expect(result.output.contains("the two writes and 1 re-fetch of the timeline"))
        #expect(result.output.contains("Sundae bar for the party, with [pistachio]"))
    }

    @Test func helpAndNoArgumentsSucceed() async {
        let help = await Vesper.runCapturing(["--help"])
        #expect(help.exitCode == 0 && help.output.contains("rename-tag"))
        let none = await Vesper.runCapturing([])
        #expect(none.exitCode == 0 && none.output.contains("USAGE: vesper <subcommand>"))
        for arguments in [["add", "--help"], ["help", "add"], ["add", "-h"]] {
            let subcommandHelp = await Vesper.runCapturing(arguments)
            #expect(subcommandHelp.exitCode == 0)
            #expect(subcommandHelp.output.contains("USAGE: vesper add"), "\(arguments)")
            #expect(subcommandHelp.output.contains("--tag <tag>"), "\(arguments)")
        }
    }
}

/// The `vesper` executable itself: what a person sees in a terminal.
@Suite struct ExecutableTests {
    /// The built `vesper` beside the test bundle, when the build made it.
    static let executable: URL? = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent(), folder.deletingLastPathComponent().deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent("vesper") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    func run(_ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String, error: String) {
        let executable: URL = try #require(Self.executable)
        let process = try ChildProcess(executable, arguments, environment: environment)
        let outputData = try #require(process.output).readDataToEndOfFile()
        let errorData = try #require(process.errors).readDataToEndOfFile()
        let status = try process.waitForExitStatus()
        return (status, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    @Test(.enabled(if: executable != nil, "the vesper executable was not built"))
    func errorsAreOneLineOnStandardErrorWithNonZeroStatus() throws {
        let folder = try TestFolder()
        let result = try run(["show", "4242", "--database", folder.databaseURL.path])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error == "vesper: There is no note with ID 4242.\n")
    }

    @Test(.enabled(if: executable != nil, "the vesper executable was not built"))
    func defaultDatabaseIsCreatedUnderTheDataHome() throws {
        let folder = try TestFolder()
        let dataHome = folder.url.appendingPathComponent("data")
        let result = try run(["add", "hello"], environment: ["XDG_DATA_HOME": dataHome.path, "HOME": folder.url.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(FileManager.default.fileExists(atPath: dataHome.appendingPathComponent("vesper/vesper.sqlite").path))
    }
}
