import ArgumentParser
import CommandLineTool

/// The `vesper` command: a notes app on the command line.
public struct Vesper: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "vesper",
        abstract: "A notes app on the command line, built on QSData.",
        discussion: ToolHelp.discussion(
            """
            Keeps notes, with ordered tags and picture attachments, in one SQLite database, and syncs \
            them with vesper-server. Commands take --database to name the database; those that print \
            results print JSON with --json.
            """,
            examples: [
                "vesper add \"Buy pistachio ice cream\" --tag Food --tag \"Ice Cream\"",
                "vesper list --archived",
                "vesper search pistachio --json",
                "vesper demo",
            ]),
        subcommands: [
            AddCommand.self, ListCommand.self, ShowCommand.self, EditCommand.self,
            TagCommand.self, UntagCommand.self, TagsCommand.self, RenameTagCommand.self,
            ArchiveCommand.self, UnarchiveCommand.self, DeleteCommand.self, SearchCommand.self,
            AttachCommand.self, ExportCommand.self, AccountCommand.self, SyncCommand.self, DemoCommand.self,
        ])

    public init() {}
}
