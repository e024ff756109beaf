import ArgumentParser

/// `vesper account …`: the sync account of a database.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Create, log in to, log out of, or show the sync account.",
        discussion: """
            The server URL, username and password are kept in a file beside the database \
            (vesper.sqlite → vesper-account.json), readable only by you; never in the database.
            """,
        subcommands: [AccountCreateCommand.self, AccountLoginCommand.self, AccountLogoutCommand.self, AccountStatusCommand.self])
}
