import Foundation
import InMemoryLogging
import Logging
import QSData
import QSDataSync
import SyncServerKit
import Testing

/// Collection on both storages: deleted objects' records and list children taken out are
/// removed once every active replica has pulled past them; a replica away longer, or a push read
/// before the collection, is told to pull everything again.
struct CollectionTests {
    typealias Kind = StorageTests.Kind

    /// A server clock a test moves.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var date = Date(timeIntervalSince1970: 1_800_000_000)
        var now: Date { lock.withLock { date } }
        func advance(_ seconds: TimeInterval) { lock.withLock { date += seconds } }
    }

    /// A service whose replicas count as away after an hour of `clock`, with one account, on a
    /// storage whose collection a test can make fail.
    func withService(
        _ kind: Kind, clock: Clock, logger: Logger = Logger(label: "collection-tests"),
        _ body: (SyncService, Int64, FaultyStorage) async throws -> Void
    ) async throws {
        func run(_ base: any SyncStorage) async throws {
            let storage = FaultyStorage(base: base)
            let service = SyncService(storage: storage, bcryptCost: 4, inactiveAfter: 3600, now: { clock.now }, logger: logger)
            let name = uniqueUsername("ann")
            try await service.createAccount(SyncCredentials(username: name, password: "password-a"))
            let account = try await service.account(forToken: service.logIn(SyncCredentials(username: name, password: "password-a")).token)
            try await body(service, account, storage)
        }
        switch kind {
        case .sqlite: try await run(SQLiteSyncStorage(path: TestFiles.temporaryPath()))
        case .postgres: try await TestPostgres.withStorage { try await run($0) }
        }
    }

    /// Pulls until nothing more comes, as `replica`; returns the last token.
    @discardableResult
    func pullAll(_ service: SyncService, _ account: Int64, as replica: SyncReplicaID, since token: String?) async throws -> String {
        var token = token
        while true {
            let page = try await service.pull(since: token, limit: 1_000, replica: replica, accountID: account)
            token = page.token
            if !page.more { return page.token }
        }
    }

    func note(_ id: Int64, at offset: Int64, _ replica: SyncReplicaID = Stamps.a) -> SyncChange {
        SyncChange(table: "notes", ids: [.integer(id)], created: Stamps.at(offset, replica), values: ["title": .text("note \(id)")])
    }

    func deletion(_ ids: [Int64], at offset: Int64, _ replica: SyncReplicaID = Stamps.a) -> SyncChange {
        SyncChange(table: "notes", ids: ids.map { .integer($0) }, deleted: Stamps.at(offset, replica))
    }

    @Test(arguments: StorageTests.kinds)
    func aDeletionIsCollectedOnceEveryActiveReplicaHasItAndAReplicaAwayLongerMustResync(_ kind: Kind) async throws {
        let clock = Clock()
        try await withService(kind, clock: clock) { service, account, storage in
            let a = Stamps.a, b = Stamps.b, c = SyncReplicaID(text: "000000000000000c")!
            var tokenA = try await pullAll(service, account, as: a, since: nil)
            _ = try await service.push(SyncPushRequest(replica: a, changes: [note(1, at: 0), note(2, at: 0)], since: tokenA), accountID: account)
            var tokenB = try await pullAll(service, account, as: b, since: nil)
            let tokenC = try await pullAll(service, account, as: c, since: nil)
            tokenA = try await pullAll(service, account, as: a, since: tokenA)
            _ = try await service.push(SyncPushRequest(replica: a, changes: [deletion([1], at: 10)], since: tokenA), accountID: account)
            #expect(try await storage.recordCount(accountID: account) == 2)

            // C goes quiet; A and B pull the deletion, and pull again to say so.
            clock.advance(7200)
            tokenA = try await pullAll(service, account, as: a, since: tokenA)
            tokenB = try await pullAll(service, account, as: b, since: tokenB)
            tokenA = try await pullAll(service, account, as: a, since: tokenA)
            tokenB = try await pullAll(service, account, as: b, since: tokenB)
            #expect(try await storage.recordCount(accountID: account) == 1, "note 1's record is collected")

            // C comes back: its pull and its push are refused; everything, pulled again, is note 2.
            await #expect(throws: SyncServiceError.resyncRequired) {
                try await service.pull(since: tokenC, limit: nil, replica: c, accountID: account)
            }
            await #expect(throws: SyncServiceError.resyncRequired) {
                try await service.push(SyncPushRequest(replica: c, changes: [note(1, at: 1, c)], since: tokenC), accountID: account)
            }
            let everything = try await service.pull(since: nil, limit: nil, replica: c, accountID: account)
            #expect(everything.changes.flatMap(\.ids) == [.integer(2)])
            // A and B carry on undisturbed.
            _ = try await pullAll(service, account, as: b, since: tokenB)
            _ = try await service.push(SyncPushRequest(replica: a, changes: [note(3, at: 20)], since: tokenA), accountID: account)
        }
    }

    /// Collection is upkeep the last page of a pull does on its way: when it fails, the pull still
    /// answers (and its token works), the failure is logged, and the next pull collects.
    @Test(arguments: StorageTests.kinds)
    func aPullAnswersWhenTheCollectionAfterItFailsAndTheNextPullCollects(_ kind: Kind) async throws {
        let log = InMemoryLogHandler()
        try await withService(kind, clock: Clock(), logger: Logger(label: "collection-tests") { _ in log }) { service, account, storage in
            let a = Stamps.a
            var token = try await pullAll(service, account, as: a, since: nil)
            _ = try await service.push(SyncPushRequest(replica: a, changes: [note(1, at: 0), note(2, at: 0)], since: token), accountID: account)
            token = try await pullAll(service, account, as: a, since: token)
            _ = try await service.push(SyncPushRequest(replica: a, changes: [deletion([1], at: 10)], since: token), accountID: account)
            token = try await pullAll(service, account, as: a, since: token)

            // A failure that is not an outage is an error; the database gone for a moment, a warning.
            storage.collectionFailure = FaultyStorage.CollectionFailed()
            let page = try await service.pull(since: token, limit: nil, replica: a, accountID: account)
            #expect(!page.more && page.changes.isEmpty)
            storage.collectionFailure = SyncServiceError.unavailable("no answer from the database within 2 seconds")
            let again = try await service.pull(since: page.token, limit: nil, replica: a, accountID: account)
            #expect(!again.more && again.changes.isEmpty)
            #expect(try await storage.recordCount(accountID: account) == 2, "nothing collected")
            let failures = log.entries.filter { $0.level >= .warning }
            #expect(failures.map(\.message.description) == Array(repeating: "collection after a pull failed; the next pull tries again", count: 2))
            #expect(failures.map(\.level) == [.error, .warning])
            #expect(failures.first?.metadata["error"]?.description == "\(FaultyStorage.CollectionFailed())")

            storage.collectionFailure = nil
            let next = try await service.pull(since: again.token, limit: nil, replica: a, accountID: account)
            #expect(!next.more && next.changes.isEmpty)
            #expect(try await storage.recordCount(accountID: account) == 1, "note 1's record is collected")
            #expect(log.entries.filter { $0.level >= .warning }.count == 2)
        }
    }

    /// A thousand notes created and deleted in twenty rounds, two replicas pulling after each:
    /// the server holds the live notes and a round or two of deletions, however many rounds run.
    @Test(arguments: StorageTests.kinds)
    func storageStaysBoundedUnderChurn(_ kind: Kind) async throws {
        let clock = Clock()
        try await withService(kind, clock: clock) { service, account, storage in
            let a = Stamps.a, b = Stamps.b
            var tokenA = try await pullAll(service, account, as: a, since: nil)
            var tokenB = try await pullAll(service, account, as: b, since: nil)
            var largest = 0
            for round in 0..<20 {
                var changes = (0..<50).map { note(Int64(round * 50 + $0), at: Int64(round * 10)) }
                if round > 0 { changes.append(deletion((0..<50).map { Int64((round - 1) * 50 + $0) }, at: Int64(round * 10 + 1))) }
                _ = try await service.push(SyncPushRequest(replica: a, changes: changes, since: tokenA), accountID: account)
                tokenA = try await pullAll(service, account, as: a, since: tokenA)
                tokenB = try await pullAll(service, account, as: b, since: tokenB)
                clock.advance(1)
                largest = max(largest, try await storage.recordCount(accountID: account))
            }
            #expect(largest <= 150, "at most \(largest) records held")
        }
    }

    /// A list child taken out loses its parts once every active replica has pulled that.
    @Test(arguments: StorageTests.kinds)
    func listChildrenTakenOutAreTrimmed(_ kind: Kind) async throws {
        let clock = Clock()
        try await withService(kind, clock: clock) { service, account, _ in
            let a = Stamps.a
            var token = try await pullAll(service, account, as: a, since: nil)
            let listed = SyncListPart(list: "tags", child: .integer(7), kind: .membership).name
            let position = SyncListPart(list: "tags", child: .integer(7), kind: .position).name
            let kept = SyncListPart(list: "tags", child: .integer(8), kind: .membership).name
            _ = try await service.push(SyncPushRequest(replica: a, changes: [
                SyncChange(table: "notes", ids: [.integer(1)], created: Stamps.at(0),
                           values: ["title": .text("t"), listed: .integer(1), position: .text("V"), kept: .integer(1)]),
            ], since: token), accountID: account)
            token = try await pullAll(service, account, as: a, since: token)
            _ = try await service.push(SyncPushRequest(replica: a, changes: [
                SyncChange(table: "notes", ids: [.integer(1)], values: [listed: .null], stamps: [listed: Stamps.at(5)]),
            ], since: token), accountID: account)
            token = try await pullAll(service, account, as: a, since: token)
            let before = try await service.pull(since: nil, limit: nil, accountID: account)
            #expect(Set(before.changes[0].values.keys) == ["title", listed, position, kept])
            _ = try await pullAll(service, account, as: a, since: token)
            let after = try await service.pull(since: nil, limit: nil, accountID: account)
            #expect(Set(after.changes[0].values.keys) == ["title", kept])
        }
    }

    /// A pull tells a replica the highest push number the server took from it.
    @Test(arguments: StorageTests.kinds)
    func aPullSaysWhichPushesArrived(_ kind: Kind) async throws {
        let clock = Clock()
        try await withService(kind, clock: clock) { service, account, _ in
            let a = Stamps.a
            let token = try await pullAll(service, account, as: a, since: nil)
            #expect(try await service.pull(since: token, limit: nil, replica: a, accountID: account).lastPush == nil)
            _ = try await service.push(SyncPushRequest(replica: a, changes: [note(1, at: 0)], since: token, number: 7), accountID: account)
            _ = try await service.push(SyncPushRequest(replica: a, changes: [note(1, at: 0)], since: token, number: 6), accountID: account)
            #expect(try await service.pull(since: token, limit: nil, replica: a, accountID: account).lastPush == 7)
            #expect(try await service.pull(since: token, limit: nil, replica: Stamps.b, accountID: account).lastPush == nil)
        }
    }

    /// A database made before collection existed opens, and collects from then on.
    @Test func anOlderSQLiteDatabaseGainsWhatCollectionNeeds() async throws {
        let path = TestFiles.temporaryPath()
        do {
            let old = try SQLiteConnection(path: path)
            try old.executeScript("""
            CREATE TABLE server (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE accounts (id INTEGER PRIMARY KEY, username TEXT NOT NULL UNIQUE, passwordHash TEXT NOT NULL, lastSequence INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE records (accountID INTEGER NOT NULL, tableName TEXT NOT NULL, id TEXT NOT NULL, sequence INTEGER NOT NULL, record TEXT NOT NULL,
                PRIMARY KEY (accountID, tableName, id)) WITHOUT ROWID;
            INSERT INTO accounts (username, passwordHash) VALUES ('ann', 'x');
            """)
        }
        let storage = try SQLiteSyncStorage(path: path)
        let collection = try await storage.collect(accountID: 1, activeSince: .distantPast)
        #expect(collection == SyncCollection(through: 0))
        #expect(try await storage.pull(accountID: 1, after: 0, limit: 10).collectedThrough == 0)
    }
}
