import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport
import Testing
import TestSupport

/// A change is queued for upload in the transaction that commits it: killing the app at any
/// moment after a commit loses nothing that sync should send.
@MainActor
@Suite(.enabled(if: CrashWriter.executable != nil, "the QSDataSyncCrashWriter executable was not built"))
struct SyncCrashTests {
    struct TimedOut: Error {}

    @Test func everyChangeCommittedBeforeAKillIsPushedAfterwards() async throws {
        let url = Replica.temporaryURL()
        let process = try ChildProcess(try #require(CrashWriter.executable), [url.path])
        // Read what it has committed until it passes 200 cards, then kill it mid-write.
        let lines = try await Self.readLines(from: try #require(process.output), until: "committed 200", within: .seconds(60))
        process.kill()
        process.waitUntilEnded()
        let committed = lines.compactMap { $0.hasPrefix("committed ") ? Int64($0.dropFirst(10)) : nil }
        #expect(committed.count >= 200)

        let server = InMemorySyncServer()
        let replica = try await Replica(server: server, url: url)
        try await replica.sync.sync()
        let onServer = server.existingObjects(in: "cards")
        let inFile = try await replica.cards()
        // Every committed card, and anything committed after the last line was printed, reached the server.
        for number in committed { #expect(onServer[.integer(number)] != nil, "card \(number) was committed but not pushed") }
        #expect(Set(onServer.keys) == Set(inFile.keys.map { SyncID.integer($0) }))
        // Card 1's title went through hundreds of edits; the server holds the last committed one.
        let lastTitle = try await replica.store.fetchRows("SELECT title FROM cards WHERE uniqueID = 1")
        #expect(lastTitle.first?.first.map(SyncValue.init(stored:)) == onServer[.integer(1)]?["title"])
        try await replica.close()
    }

    /// The lines `handle` gives until one equals `last`, reading on a thread of its own.
    private static func readLines(from handle: FileHandle, until last: String, within limit: Duration) async throws -> [String] {
        try await withThrowingTaskGroup(of: [String].self) { group in
            group.addTask {
                await Task.detached {
                    var lines: [String] = []
                    var buffer = ""
                    while true {
                        let data = handle.availableData
                        guard !data.isEmpty else { return lines }
                        buffer += String(decoding: data, as: UTF8.self)
                        while let newline = buffer.firstIndex(of: "\n") {
                            let line = String(buffer[..<newline])
                            buffer.removeSubrange(...newline)
                            lines.append(line)
                            if line == last { return lines }
                        }
                    }
                }.value
            }
            group.addTask {
                try await Task.sleep(for: limit)
                throw TimedOut()
            }
            defer { group.cancelAll() }
            return try await group.next() ?? []
        }
    }
}

/// The QSDataSyncCrashWriter executable, built beside the test bundle.
enum CrashWriter {
    static let executable: URL? = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent(), folder.deletingLastPathComponent().deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent("QSDataSyncCrashWriter") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}
