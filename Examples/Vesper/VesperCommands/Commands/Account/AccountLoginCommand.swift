import ArgumentParser
import CommandLineTool
import VesperCore
import VesperSync

struct AccountLoginCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in to an existing account on a sync server.",
        discussion: "The next sync uploads every note here to the account and downloads the account's notes.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var network: NetworkOptions
    @OptionGroup var credentials: AccountCredentials

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let account = try VSAccount(dataController: vesper, transport: network.transport)
        try await account.login(server: try credentials.serverURL(), username: credentials.username,
                                password: try credentials.resolvedPassword())
        let status = try await VesperJSON.AccountStatus(account)
        return CommandOutput(text: "Logged in as \(credentials.username) on \(status.server ?? ""). Run `vesper sync` to sync.", json: status)
    }
}
