import ArgumentParser
import CommandLineTool

/// The `vesper` command: a notes app on the command line.
public struct Vesper: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "vesper",
        abstract: "Vesper notes on the command line, stored with QSData.",
        discussion: """
            Notes live in one SQLite database (--database PATH, or the default under your data \
            folder, created on first use). Listings print text for people, or JSON with --json.
            Try `vesper demo` for a tour of what the store does underneath.
            """,
        subcommands: [
            AddCommand.self, ListCommand.self, ShowCommand.self, EditCommand.self,
            TagCommand.self, UntagCommand.self, TagsCommand.self, RenameTagCommand.self,
            ArchiveCommand.self, UnarchiveCommand.self, DeleteCommand.self, SearchCommand.self,
            AttachCommand.self, ExportCommand.self, AccountCommand.self, SyncCommand.self, DemoCommand.self,
        ])

    public init() {}
}
