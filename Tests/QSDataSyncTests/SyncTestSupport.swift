import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport
import Testing
import TestSupport

/// A replica for the tests: a board store in a temporary file with a sync attached to `server`.
@MainActor
final class Replica {
    let url: URL
    let store: QSStore
    let sync: QSSync

    init(
        server: any QSSyncTransport, url: URL = Replica.temporaryURL(), clock: QSSyncClock = .system, newReplicaID: SyncReplicaID? = nil,
        model: String = BoardModel.model, schema: String = BoardModel.schema, types: [any QSDataObject.Type] = [Board.self, Card.self, Setting.self]
    ) async throws {
        self.url = url
        store = try await BoardModel.openStore(at: url, model: model, schema: schema, types: types)
        sync = try await QSSync.attach(to: store, transport: server, clock: clock, newReplicaID: newReplicaID)
    }

    static func temporaryURL() -> URL {
        TestRunFolder.newFile("qsdata-sync", suffix: ".sqlite")
    }

    /// Every card: title, done and points by ID, read from the file.
    func cards() async throws -> [Int64: String] {
        var cards: [Int64: String] = [:]
        for row in try await store.fetchRows("SELECT uniqueID, title, done, points FROM cards") {
            guard case .integer(let id) = row[0] else { continue }
            cards[id] = row.dropFirst().map { "\($0)" }.joined(separator: "|")
        }
        return cards
    }

    /// Each board's name and its cards' IDs in order.
    func boards() async throws -> [Int64: String] {
        var boards: [Int64: String] = [:]
        for row in try await store.fetchRows("""
            SELECT b.uniqueID, b.name, (SELECT group_concat(cardID, ',') FROM (SELECT cardID FROM boardCards WHERE boardID = b.uniqueID ORDER BY ix))
            FROM boards AS b
            """) {
            guard case .integer(let id) = row[0] else { continue }
            boards[id] = row.dropFirst().map { "\($0)" }.joined(separator: "|")
        }
        return boards
    }

    /// The rows of the sync's outbox: table, ID and part.
    func outbox() async throws -> [String] {
        try await store.fetchRows("SELECT tableName, id, part FROM qsdata_sync_outbox ORDER BY tableName, id, part")
            .map { row in
                row.map { value in
                    switch value {
                    case .text(let text): text
                    default: "\(value)"
                    }
                }.joined(separator: " ")
            }
    }

    func close() async throws {
        try await store.close()
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }
}

/// A wall clock a test sets by hand.
final class HandClock: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date

    init(_ date: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.date = date
    }

    func advance(_ seconds: TimeInterval) {
        lock.withLock { date += seconds }
    }

    var clock: QSSyncClock {
        QSSyncClock { [self] in lock.withLock { date } }
    }
}

extension SyncValue {
    /// A text column's value as sync sends it (the tests compare what the file holds with what
    /// the server received).
    init(stored: SQLValue) {
        switch stored {
        case .text(let text): self = .text(text)
        case .integer(let value): self = .integer(value)
        case .real(let value): self = .real(value)
        case .blob(let data): self = .blob(data)
        case .null: self = .null
        }
    }
}
