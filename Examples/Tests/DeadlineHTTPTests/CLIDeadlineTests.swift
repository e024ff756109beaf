import ExampleTestSupport
import Foundation
import Testing

/// The built `rss` and `vesper` against a trickling and a silent server: each gives up at its
/// `--timeout` with a message naming it, and uses under a tenth of the wall time in CPU.
@Suite(.serialized) struct CLIDeadlineTests {
    /// The folder of the built executables, beside the test bundle.
    static let products: URL? = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent(), folder.deletingLastPathComponent().deletingLastPathComponent()]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("rss").path) }
    }()

    struct Run {
        var status: Int32
        var errorOutput: String
        var wall: Duration
        /// User plus system CPU of the executable, as bash's `times` reports for its children.
        var cpu: Duration
    }

    /// ``runNow(_:_:)`` on a thread of its own: a blocking wait of seconds on one of Swift's few
    /// cooperative threads would starve the in-process servers of tests running alongside.
    static func run(_ name: String, _ arguments: [String]) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try runNow(name, arguments) }) }
        }
    }

    /// Runs an executable under bash, whose `times` reports the CPU its child used (the
    /// executable's own output is dropped, so standard output carries only that).
    static func runNow(_ name: String, _ arguments: [String]) throws -> Run {
        let executable = try #require(products).appendingPathComponent(name).path
        let started = ContinuousClock.now
        let process = try ChildProcess(
            URL(fileURLWithPath: "/bin/bash"), ["-c", #""$@" >/dev/null; status=$?; times; exit $status"#, "bash", executable] + arguments)
        let errorData = try #require(process.errors).readDataToEndOfFile()
        let timesData = try #require(process.output).readDataToEndOfFile()
        let status = try process.waitForExitStatus()
        let wall = ContinuousClock.now - started
        // `times` prints the shell's user and system time, then its children's: "0m0.151s 0m0.040s".
        let childLine = try #require(String(decoding: timesData, as: UTF8.self).split(separator: "\n").last)
        let cpu = childLine.split(separator: " ").compactMap(Self.seconds).reduce(0, +)
        return Run(status: status, errorOutput: String(decoding: errorData, as: UTF8.self),
                   wall: wall, cpu: .milliseconds(Int64(cpu * 1000)))
    }

    /// "1m2.500s" → 62.5.
    static func seconds(_ text: Substring) -> Double? {
        let parts = text.dropLast().split(separator: "m")
        guard text.hasSuffix("s"), parts.count == 2, let minutes = Double(parts[0]), let seconds = Double(parts[1]) else { return nil }
        return minutes * 60 + seconds
    }

    static func temporaryDatabase(_ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deadline-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    @Test(.enabled(if: products != nil, "the executables were not built"))
    func rssImportGivesUpOnATricklingServerAtItsTimeoutWithoutBurningCPU() async throws {
        let server = try SlowLoopbackServer(.trickle(interval: .milliseconds(200)))
        defer { server.stop() }
        let run = try await Self.run("rss", ["import", "http://127.0.0.1:\(server.port)/feed.xml", "--timeout", "4",
                                       "--database", try Self.temporaryDatabase("rss.sqlite")])
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("did not finish answering within 4 s (the overall timeout)"), "\(run.errorOutput)")
        #expect(run.wall >= .seconds(4) && run.wall < .seconds(14), "ran for \(run.wall)")
        #expect(run.cpu * 10 < run.wall, "used \(run.cpu) of CPU in \(run.wall)")
    }

    @Test(.enabled(if: products != nil, "the executables were not built"))
    func vesperLoginGivesUpOnASilentServerAtItsTimeoutWithoutBurningCPU() async throws {
        let server = try SlowLoopbackServer(.silent)
        defer { server.stop() }
        let run = try await Self.run("vesper", ["account", "login", "--server", "http://127.0.0.1:\(server.port)/",
                                          "--username", "a@example.com", "--password", "a long password", "--timeout", "4",
                                          "--database", try Self.temporaryDatabase("vesper.sqlite")])
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("sent no part of its answer for 2 s, silent or trickling (the first-byte timeout)"), "\(run.errorOutput)")
        #expect(run.wall >= .seconds(2) && run.wall < .seconds(14), "ran for \(run.wall)")
        #expect(run.cpu * 10 < run.wall, "used \(run.cpu) of CPU in \(run.wall)")
    }

    /// A sync makes many calls (tags, deletions, notes, attachments, each logging in again
    /// while the server fails): `--timeout` bounds them all together, so the whole command ends
    /// within about that time, whether the server trickles or says nothing at all.
    @Test(.enabled(if: products != nil, "the executables were not built"), arguments: [
        SlowLoopbackServer.Behaviour.trickle(interval: .milliseconds(200)), .silent,
    ])
    func vesperSyncEndsWithinItsTimeoutInAll(behaviour: SlowLoopbackServer.Behaviour) async throws {
        let server = try SlowLoopbackServer(behaviour)
        defer { server.stop() }
        let database = try Self.temporaryDatabase("vesper.sqlite")
        // An account file as a login leaves it, so that sync talks to the slow server.
        let account = URL(fileURLWithPath: database).deletingLastPathComponent().appendingPathComponent("vesper-account.json")
        let state = #"{"server":"http://127.0.0.1:\#(server.port)/","username":"a@example.com","password":"a long password","clockSkew":0}"#
        try Data(state.utf8).write(to: account)
        let run = try await Self.run("vesper", ["sync", "--timeout", "4", "--database", database])
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("(the overall timeout)") || run.errorOutput.contains("(the first-byte timeout)"), "\(run.errorOutput)")
        #expect(run.errorOutput.contains("were used up (the overall timeout)"), "\(run.errorOutput)")
        // Four seconds, and a margin for starting the process on a busy machine.
        #expect(run.wall < .seconds(7), "ran for \(run.wall)")
    }
}
