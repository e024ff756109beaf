import Foundation
import QSData
import Testing
import TestSupport

/// Crash safety: a process killed with SIGKILL while it writes leaves a database that opens, passes
/// `PRAGMA integrity_check`, and holds every transaction that committed — and no part of one
/// that did not.
@Suite(.serialized) struct CrashSafetyTests {
    /// The writer executable, built beside the test bundle.
    static let writer: URL? = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent(), folder.deletingLastPathComponent().deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent("QSDataCrashWriter") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    @Test(.enabled(if: writer != nil, "the QSDataCrashWriter executable was not built"), arguments: [3, 17, 40])
    func aKilledWriterLosesNothingThatCommitted(killAfterBatch: Int) throws {
        let database = Fixtures.temporaryDatabaseURL()
        let lastReported = try runWriterAndKill(database: database, afterBatch: killAfterBatch)
        #expect(lastReported >= killAfterBatch)

        let connection = try SQLiteConnection(path: database.path)
        #expect(try connection.fetchValue("PRAGMA integrity_check") == .text("ok"))
        // Every batch the writer reported committed is there…
        let present = try connection.fetchRows("SELECT batch, count(*) FROM entries GROUP BY batch ORDER BY batch")
        let batches = present.compactMap { row -> (Int64, Int64)? in
            guard case .integer(let batch) = row[0], case .integer(let count) = row[1] else { return nil }
            return (batch, count)
        }
        #expect(batches.count >= lastReported)
        #expect(batches.prefix(lastReported).map(\.0) == (1...Int64(lastReported)).map { $0 })
        // …and every batch that is there is whole: a transaction cut off by the kill left nothing.
        #expect(batches.allSatisfy { $0.1 == 50 }, "\(batches.filter { $0.1 != 50 })")
    }

    /// Starts the writer, waits until it reports `afterBatch` committed batches, kills it with
    /// SIGKILL mid-write, and returns the last batch it reported.
    private func runWriterAndKill(database: URL, afterBatch: Int) throws -> Int {
        let process = try ChildProcess(try #require(Self.writer), [database.path], standardError: .discarded)
        let output = try #require(process.output)
        var reported = 0
        var pending = ""
        let deadline = Date().addingTimeInterval(60)
        while reported < afterBatch, Date() < deadline {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            pending += String(decoding: chunk, as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                reported = Int(pending[..<newline]) ?? reported
                pending = String(pending[pending.index(after: newline)...])
            }
        }
        process.kill()
        #expect(process.waitUntilEnded() == .killed(signal: SIGKILL))
        // Lines written before the kill and not read yet are committed batches too.
        pending += String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
        for line in pending.split(separator: "\n") { reported = Int(line) ?? reported }
        return reported
    }
}
