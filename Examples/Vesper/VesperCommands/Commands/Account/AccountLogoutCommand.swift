import ArgumentParser
import CommandLineTool
import VesperCore
import VesperSync

struct AccountLogoutCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Forget the sync account's credentials and sync state; the notes here stay.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let account = try VSAccount(dataController: vesper)
        let username = account.state?.username
        try account.logout()
        let status = try await VesperJSON.AccountStatus(account)
        return CommandOutput(text: username.map { "Logged out of \($0)." } ?? "No account was logged in.", json: status)
    }
}
