import Foundation
import QSDataSync
import SyncServerKit
import Testing

/// A pull token never skips a change on PostgreSQL, where many instances' transactions commit
/// in any order: 50 writers push to one account at once, each holding its transaction open for
/// a random while before committing, while a reader polls by token; at the end the reader has
/// seen every object at its final value.
@Suite(.enabled(if: TestPostgres.isAvailable, "no PostgreSQL (set VESPER_TEST_POSTGRES_URL)"))
struct PullTokenTests {
    @Test func fiftyConcurrentWritersWithRandomCommitDelaysAndAPollingReaderMissNothing() async throws {
        // Each push waits 0–20 ms inside its transaction before committing.
        let delay: @Sendable () async -> Void = { try? await Task.sleep(for: .milliseconds(Int.random(in: 0...20))) }
        try await TestPostgres.withStorage(beforeCommit: delay) { storage in
            let service = SyncService(storage: storage, bcryptCost: 4)
            let username = uniqueUsername("ann")
            try await service.createAccount(SyncCredentials(username: username, password: "password-a"))
            let account = try await service.account(forToken: service.logIn(SyncCredentials(username: username, password: "password-a")).token)
            let writers = 50, pushesEach = 8
            let finished = Flag()
            let reader = Task {
                var token: String?
                var seen: [SyncID: SyncValue] = [:]
                var polls = 0
                while true {
                    let done = finished.isSet
                    let page = try await service.pull(since: token, limit: 500, accountID: account)
                    polls += 1
                    for change in page.changes {
                        for id in change.ids { if let value = change.values["n"] { seen[id] = value } }
                    }
                    token = page.token
                    if done, !page.more { return (seen, polls) }
                    if page.changes.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
                }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        let replica = SyncReplicaID(text: SyncID.integer(Int64(writer)).json.padded(to: 16))!
                        for push in 0..<pushesEach {
                            let stamp = SyncStamp(milliseconds: Stamps.base + Int64(push), counter: 0, replica: replica)
                            // Each writer's own object, and one object every writer edits.
                            let change = SyncChange(
                                table: "counters", ids: [.integer(Int64(writer)), .integer(1_000)], created: stamp,
                                values: ["n": .integer(Int64(push))], stamps: ["n": stamp])
                            _ = try await service.push(SyncPushRequest(replica: replica, changes: [change]), accountID: account)
                        }
                    }
                }
                try await group.waitForAll()
            }
            finished.set()
            let (seen, polls) = try await reader.value
            // What the server holds at the end, read afresh.
            let final = try await service.pull(since: nil, limit: 10_000, accountID: account)
            var expected: [SyncID: SyncValue] = [:]
            for change in final.changes { for id in change.ids { expected[id] = change.values["n"] } }
            #expect(expected.count == writers + 1)
            #expect(seen == expected, "the reader (\(polls) polls) missed changes")
            #expect(polls > 1)
        }
    }
}

/// A flag set once, read from any task.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

extension String {
    /// Left-padded with zeros to `length` (a replica ID from a small number).
    func padded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
