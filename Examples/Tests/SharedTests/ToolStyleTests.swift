import CommandLineTool
import ExampleTestSupport
import Foundation
import RSSCommands
import Testing
import VesperCommands
import VesperServerCommand

/// `vesper`, `rss` and `vesper-server` in one style: their help reads alike, the options they
/// share read the same, and `--json` prints JSON in every tool that has it.
@Suite struct ToolStyleTests {
    /// A tool's help for one command, its whitespace (the help's line wrapping) made single spaces.
    static func help(_ tool: String, _ arguments: [String]) async -> String {
        let run = switch tool {
        case "rss": await RSSCommand.runCapturing(arguments + ["--help"])
        case "vesper": await Vesper.runCapturing(arguments + ["--help"])
        default: await VesperServerCommand.runCapturing(arguments + ["--help"])
        }
        #expect(run.exitCode == 0, "\(tool) \(arguments) --help: \(run.errorOutput)")
        return run.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test(arguments: [("rss", ["feeds"]), ("vesper", ["list"]), ("vesper-server", [])])
    func theDatabaseOptionReadsTheSameInEveryTool(tool: String, command: [String]) async {
        let help = await Self.help(tool, command)
        let file = "\(tool)/\(tool).sqlite"
        #expect(help.contains("--database <path> The database file, created on first use. "
            + "Default: $XDG_DATA_HOME/\(file), else ~/.local/share/\(file)."), "\(help)")
    }

    @Test(arguments: [("rss", ["feeds"]), ("rss", ["stats"]), ("vesper", ["list"]), ("vesper", ["add"])])
    func theJSONOptionReadsTheSameInEveryTool(tool: String, command: [String]) async {
        let help = await Self.help(tool, command)
        #expect(help.contains("--json Print JSON instead of text, for scripts."), "\(help)")
    }

    @Test(arguments: ["rss", "vesper", "vesper-server"])
    func theOverviewHasOneShape(tool: String) async {
        let help = await Self.help(tool, [])
        #expect(help.hasPrefix("OVERVIEW: "), "\(help)")
        #expect(help.contains(", built on QSData. "), "\(help)")
        #expect(help.contains(" Examples: \(tool) "), "\(help)")
    }

    @Test func rssPrintsJSONWithTheJSONOption() async throws {
        let folder = try TestFolder(prefix: "tool-style")
        let database = folder.appending("rss.sqlite").path
        for command in [["feeds"], ["stats"], ["list"]] {
            let run = await RSSCommand.runCapturing(command + ["--json", "--database", database])
            #expect(run.exitCode == 0, "\(run.errorOutput)")
            #expect(Self.isJSON(run.output), "rss \(command) --json printed \(run.output)")
        }
    }

    @Test func vesperPrintsJSONWithTheJSONOption() async throws {
        let folder = try TestFolder(prefix: "tool-style")
        let database = folder.appending("vesper.sqlite").path
        for command in [["add", "A note"], ["list"], ["tags"]] {
            let run = await Vesper.runCapturing(command + ["--json", "--database", database])
            #expect(run.exitCode == 0, "\(run.errorOutput)")
            #expect(Self.isJSON(run.output), "vesper \(command) --json printed \(run.output)")
        }
    }

    /// Whether `text` is one JSON value and a final newline.
    static func isJSON(_ text: String) -> Bool {
        guard text.hasSuffix("\n") else { return false }
        do {
            _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            return true
        } catch {
            return false
        }
    }
}
