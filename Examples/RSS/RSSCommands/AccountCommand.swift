import ArgumentParser
import CommandLineTool
import Foundation
import RSSCore

/// `rss account …`: the sync account this database syncs with.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Create, log in to, or leave a sync account.",
        subcommands: [AccountCreateCommand.self, AccountLoginCommand.self, AccountLogoutCommand.self, AccountStatusCommand.self])
}

struct AccountCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create an account on a QSData sync server and log in to it.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var account: SyncAccountOptions
    @OptionGroup var network: SyncNetworkOptions

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let server = try account.serverURL(), password = try account.resolvedPassword()
        let created = try await options.withData { data in
            try await data.createSyncAccount(server: server, username: account.username, password: password, deadlines: network.deadlines)
        }
        Console.current.line("Created the account \(created.username) on \(created.server.absoluteString) and logged in. Run `rss sync` to sync.")
    }
}

struct AccountLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Log in to an account on a QSData sync server.",
        discussion: "The next sync uploads every feed and article here and downloads the account's.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var account: SyncAccountOptions
    @OptionGroup var network: SyncNetworkOptions

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let server = try account.serverURL(), password = try account.resolvedPassword()
        let loggedIn = try await options.withData { data in
            try await data.logInToSync(server: server, username: account.username, password: password, deadlines: network.deadlines)
        }
        Console.current.line("Logged in as \(loggedIn.username) on \(loggedIn.server.absoluteString). Run `rss sync` to sync.")
    }
}

struct AccountLogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Forget the login; changes made meanwhile are sent after the next login.")

    @OptionGroup var options: GlobalOptions

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        try await options.withData { data in try await data.logOutOfSync() }
        Console.current.line("Logged out.")
    }
}

struct AccountStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the account and how many changes wait to be sent.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    /// What `account status --json` prints.
    struct Status: Codable {
        var server: String?
        var username: String?
        var waitingChanges: Int
    }

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let status = try await options.withData { data in
            let account = try data.syncAccount()
            return Status(server: account?.server.absoluteString, username: account?.username, waitingChanges: try await data.waitingSyncChanges())
        }
        if output.json { return Console.current.line(try Output.json(status)) }
        guard let username = status.username, let server = status.server else {
            return Console.current.line("Not logged in. \(Output.plural(status.waitingChanges, "change")) wait to be sent.")
        }
        Console.current.line("Logged in as \(username) on \(server). \(Output.plural(status.waitingChanges, "change")) wait to be sent.")
    }
}
