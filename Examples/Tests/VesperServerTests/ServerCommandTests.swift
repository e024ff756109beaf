import CommandLineTool
import ExampleTestSupport
import Foundation
import Testing
import VesperServerCommand

/// `vesper-server`'s options and settings, run in-process: every mistake is one line naming what
/// was wrong, found before the server creates anything on disk.
@Suite struct ServerCommandTests {
    /// Runs `vesper-server` with a database in a folder that does not exist yet, so a test can
    /// see that a refused start created nothing.
    func refusedStart(_ arguments: [String], in folder: TestFolder) async -> CommandRun {
        let database = folder.appending("server/db.sqlite").path
        return await VesperServerCommand.runCapturing(
            ["--database", database, "--attachments", folder.appending("attachments").path] + arguments)
    }

    @Test func unknownLogLevelsAreUsageErrorsListingTheLevels() async throws {
        let folder = try TestFolder(prefix: "vesper-server-command")
        let run = await refusedStart(["--log-level", "loud"], in: folder)
        #expect(run.exitCode == 64)
        #expect(run.output.isEmpty)
        #expect(run.errorOutput.hasPrefix("vesper-server: "))
        #expect(run.errorOutput.contains("'loud'"))
        #expect(run.errorOutput.contains("critical"))
        #expect(run.errorOutput.filter { $0 == "\n" }.count == 1)
    }

    @Test(arguments: [
        (["--max-connections", "0"], "--max-connections must be positive"),
        (["--idle-timeout", "0"], "--request-head-timeout and --idle-timeout must be positive"),
        (["--token-lifetime-hours", "0"], "--token-lifetime-hours must be positive"),
        (["--port", "70000"], "--port must be between 0 and 65535 (0: any free port)"),
    ])
    func outOfRangeOptionsAreUsageErrors(arguments: [String], message: String) async throws {
        let folder = try TestFolder(prefix: "vesper-server-command")
        let run = await refusedStart(arguments, in: folder)
        #expect(run.exitCode == 64)
        #expect(run.errorOutput == "vesper-server: \(message)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appending("server").path))
    }

    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["VESPER_TEXT_KEY_ID"] == nil, "the environment sets VESPER_TEXT_KEY_ID"),
        arguments: [
            ("VESPER_TEXT_KEY_ID=seven", "VESPER_TEXT_KEY_ID must be a whole number, not 'seven'"),
            ("VESPER_TEXT_KEY_ID=2.5", "VESPER_TEXT_KEY_ID must be a whole number, not '2.5'"),
            ("VESPER_TEXT_KEYS=one:AAAA", "VESPER_TEXT_KEYS must look like 1:<base64>,2:<base64>"),
            ("VESPER_TEXT_KEY_ID", "line 2: expected KEY=value"),
        ])
    func settingsThatDoNotParseAreErrorsNamingTheSetting(line: String, message: String) async throws {
        guard ProcessInfo.processInfo.environment["VESPER_TEXT_KEYS"] == nil else { return }
        let folder = try TestFolder(prefix: "vesper-server-command")
        let config = try folder.file("server.conf", Data("# settings\n\(line)\n".utf8))
        let run = await refusedStart(["--config", config.path], in: folder)
        #expect(run.exitCode == 1)
        #expect(run.output.isEmpty)
        #expect(run.errorOutput.hasPrefix("vesper-server: "))
        #expect(run.errorOutput.hasSuffix("\(message)\n"), "\(run.errorOutput)")
        // Nothing was created: no database folder, no secret file.
        #expect(!FileManager.default.fileExists(atPath: folder.appending("server").path))
    }

    @Test func helpListsTheOptionsAndSucceeds() async throws {
        let run = await VesperServerCommand.runCapturing(["--help"])
        #expect(run.exitCode == 0)
        #expect(run.output.contains("USAGE: vesper-server"))
        #expect(run.output.contains("--log-level <log-level>"))
    }
}
