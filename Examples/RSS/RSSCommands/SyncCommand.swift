import ArgumentParser
import CommandLineTool
import Foundation
import QSDataSync
import RSSCore

/// `rss sync`: push this database's changes, pull the other devices'.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync subscriptions, articles, read and starred state with the account's server.",
        discussion: """
            Each property keeps its latest edit; a delete wins over any edit (unsubscribing on one \
            device while another stars an article of that feed leaves the feed and its articles \
            deleted on both).
            """)

    @OptionGroup var options: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var network: SyncNetworkOptions

    /// What `sync --json` prints.
    struct Summary: Codable {
        var pushedObjects: Int
        var pushRequests: Int
        var pulledObjects: Int
        var pullRequests: Int
        var appliedObjects: Int
    }

    func run() async throws { try await execute() }

    @MainActor private func execute() async throws {
        let report = try await options.withData { data in try await data.syncNow(deadlines: network.deadlines) }
        let summary = Summary(
            pushedObjects: report.pushedObjects, pushRequests: report.pushRequests, pulledObjects: report.pulledObjects,
            pullRequests: report.pullRequests, appliedObjects: report.appliedObjects)
        if output.json { return Console.current.line(try Output.json(summary)) }
        Console.current.line(
            "Sent \(Output.plural(report.pushedObjects, "change")) in \(Output.plural(report.pushRequests, "request")); "
                + "received \(Output.plural(report.pulledObjects, "change")), \(report.appliedObjects) new here.")
    }
}
