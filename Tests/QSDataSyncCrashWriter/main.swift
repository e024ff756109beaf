// A process that saves synced cards until it is killed, for the sync's crash test: each save is
// a new card and an edit of card 1's title, and it prints each card's number once committed.
// Nothing is pushed (its server is never reached): the test kills it with SIGKILL, then checks
// that every committed change waits in the outbox.
//
//     QSDataSyncCrashWriter DATABASE_PATH
import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport

@MainActor
func run(path: String) async throws {
    let store = try await BoardModel.openStore(at: URL(fileURLWithPath: path))
    let sync = try await QSSync.attach(to: store, transport: InMemorySyncServer())
    let first = Card(uniqueID: 1, title: "edit 0")
    try await store.save(first).committed()
    FileHandle.standardOutput.write(Data("committed 1\n".utf8))
    for number in Int64(2)... {
        first.title = "edit \(number)"
        _ = try store.save(first)
        try await store.save(Card(uniqueID: number, title: "card \(number)")).committed()
        FileHandle.standardOutput.write(Data("committed \(number)\n".utf8))
    }
    _ = sync
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: QSDataSyncCrashWriter DATABASE_PATH\n".utf8))
    exit(2)
}
do {
    try await run(path: CommandLine.arguments[1])
} catch {
    FileHandle.standardError.write(Data("QSDataSyncCrashWriter: \(error)\n".utf8))
    exit(1)
}
