import ArgumentParser
import CommandLineTool
import VesperCore
import VesperSync

struct AccountStatusCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the sync account, the last sync, and what waits for upload.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let status = try await VesperJSON.AccountStatus(try VSAccount(dataController: vesper))
        guard let username = status.username, let server = status.server else {
            return CommandOutput(text: "Not logged in. \(TextFormat.count(status.notesToUpload, "note")) and "
                                 + "\(TextFormat.count(status.deletionsToUpload, "deletion")) wait for a sync account.", json: status)
        }
        var lines = ["Logged in as \(username) on \(server)."]
        lines.append(status.lastSyncDate.map { "Last sync: \(TextFormat.date($0))." } ?? "Not synced yet.")
        lines.append("Waiting for upload: \(TextFormat.count(status.notesToUpload, "note")), \(TextFormat.count(status.deletionsToUpload, "deletion")).")
        if status.clockSkew != 0 { lines.append("The server's clock is \(Int(status.clockSkew)) s from this computer's; edits use the server's time.") }
        return CommandOutput(text: lines.joined(separator: "\n"), json: status)
    }
}
