import ArgumentParser
import CommandLineTool
import VesperCore
import VesperSync

struct SyncCommand: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync with the server now, and show what went up and came down.",
        discussion: "Tags, then deletions, then notes (with their tags and attachment metadata), then attachment files.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var network: NetworkOptions

    func run(with vesper: VSDataController) async throws -> CommandOutput {
        let account = try VSAccount(dataController: vesper, transport: network.transport)
        let report = try await account.syncNow()
        if !report.failures.isEmpty {
            throw SyncFailed(failures: report.failures)
        }
        func line(_ label: String, _ up: Int, _ down: Int) -> String {
            "\(label): \(up) up, \(down) down"
        }
        let lines = [
            "Synced with \(account.state?.server.absoluteString ?? "the server").",
            line("Tags", report.tagsUploaded, report.tagsDownloaded.count),
            line("Deletions", report.deletionsUploaded.count, report.deletionsDownloaded.count),
            "Notes: \(report.notesUploaded.count) up, \(report.notesCreated.count) new and \(report.notesUpdated.count) changed down",
            line("Attachments", report.attachmentsUploaded.count, report.attachmentsDownloaded.count),
        ] + report.notesSetAside.map {
            "Not sent: note \($0.noteID), which the server refuses (\($0.reason)); edit it to try again."
        }
        let text = lines.joined(separator: "\n")
        return CommandOutput(text: text, json: report)
    }
}

/// Some sync steps failed: one line naming each.
struct SyncFailed: Error, CustomStringConvertible {
    var failures: [String]
    var description: String { "sync failed: " + failures.joined(separator: "; ") }
}
