import ArgumentParser
import CommandLineTool
import VesperCore
import VesperSync

struct AccountCreateCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an account on a sync server and log in to it.",
        discussion: "Usernames are email addresses (5–150 characters); passwords have 7–99 characters.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var network: NetworkOptions
    @OptionGroup var credentials: AccountCredentials

    @Flag(name: .long, help: "Ask for email updates.")
    var emailUpdates = false

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let account = try VSAccount(dataController: vesper, transport: network.transport)
        try await account.createAccount(
            server: try credentials.serverURL(), username: credentials.username,
            password: try credentials.resolvedPassword(), emailUpdates: emailUpdates)
        let status = try await VesperJSON.AccountStatus(account)
        return CommandOutput(text: "Created the account \(credentials.username) on \(status.server ?? "") and logged in. Run `vesper sync` to sync.",
                             json: status)
    }
}
