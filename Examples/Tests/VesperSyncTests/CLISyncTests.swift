import CommandLineTool
import ExampleTestSupport
import Foundation
import Testing
import VesperCommands
import VesperCore
import VesperSync

/// `vesper account …` and `vesper sync` in-process, against the real server.
@MainActor
@Suite(.serialized) struct CLISyncTests {
    @Test func accountCreateSyncStatusAndLogoutOnTwoDatabases() async throws {
        let harness = try await RealHarness.start()
        defer { Task { try? await harness.stop() } }
        let folder = try TestFolder()
        let day = try folder.databaseURL("day").path
        let night = try folder.databaseURL("night").path
        func vesper(_ database: String, _ arguments: String..., stdin: String? = nil) async -> CommandRun {
            await Vesper.runCapturing(arguments + ["--database", database], standardInput: stdin)
        }

        let notLoggedIn = await vesper(day, "sync")
        #expect(notLoggedIn.exitCode == 1 && notLoggedIn.errorOutput.contains("No sync account"))

        let created = await vesper(day, "account", "create", "--server", harness.url.absoluteString,
                                   "--username", "carol@example.com", stdin: "a long password\n")
        #expect(created.exitCode == 0, "\(created.errorOutput)")
        #expect(created.output.hasPrefix("Created the account carol@example.com"))
        let accountFile = URL(fileURLWithPath: day).deletingLastPathComponent().appendingPathComponent("vesper-account.json")
        #expect((try FileManager.default.attributesOfItem(atPath: accountFile.path)[.posixPermissions] as? Int) == 0o600)

        _ = await vesper(day, "add", "Buy milk", "--tag", "Errands", "--tag", "Home")
        let status = await vesper(day, "account", "status", "--json")
        let decoded = try VesperJSON.decoder().decode(VesperJSON.AccountStatus.self, from: Data(status.output.utf8))
        #expect(decoded.loggedIn && decoded.username == "carol@example.com" && decoded.notesToUpload == 1 && decoded.lastSyncDate == nil)

        let up = await vesper(day, "sync", "--json")
        #expect(up.exitCode == 0, "\(up.errorOutput)")
        let upReport = try JSONDecoder().decode(VSSyncReport.self, from: Data(up.output.utf8))
        #expect(upReport.notesUploaded.count == 1 && upReport.tagsUploaded == 2)

        let login = await vesper(night, "account", "login", "--server", harness.url.absoluteString,
                                 "--username", "carol@example.com", "--password", "a long password")
        #expect(login.exitCode == 0, "\(login.errorOutput)")
        let down = await vesper(night, "sync")
        #expect(down.exitCode == 0, "\(down.errorOutput)")
        #expect(down.output.contains("Notes: 0 up, 1 new and 0 changed down"))
        let list = await vesper(night, "list")
        #expect(list.output.contains("Buy milk"))

        let wrong = await vesper(night, "account", "login", "--server", harness.url.absoluteString,
                                 "--username", "carol@example.com", "--password", "not the password")
        #expect(wrong.exitCode == 1 && wrong.errorOutput == "vesper: The server refused the username and password.\n")

        let logout = await vesper(night, "account", "logout")
        #expect(logout.output == "Logged out of carol@example.com.\n")
        #expect(await vesper(night, "account", "status").output.hasPrefix("Not logged in."))
    }
}
