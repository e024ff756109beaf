import Foundation
import QSDataSync
import SyncServerKit
import Testing

/// The storages, SQLite and PostgreSQL, through the service: merging, isolation, paging, bulk
/// changes and deletions, all with the protocol's one merge function.
struct StorageTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    static var kinds: [Kind] { TestPostgres.isAvailable ? Kind.allCases : [.sqlite] }

    /// A service over a fresh storage of `kind`, with two accounts.
    func withService(_ kind: Kind, _ body: (SyncService, Int64, Int64) async throws -> Void) async throws {
        func run(_ storage: any SyncStorage) async throws {
            let service = SyncService(storage: storage, bcryptCost: 4, now: { Date(timeIntervalSince1970: 1_800_000_000) })
            let annName = uniqueUsername("ann"), bobName = uniqueUsername("bob")
            try await service.createAccount(SyncCredentials(username: annName, password: "password-a"))
            try await service.createAccount(SyncCredentials(username: bobName, password: "password-b"))
            let ann = try await service.account(forToken: service.logIn(SyncCredentials(username: annName, password: "password-a")).token)
            let bob = try await service.account(forToken: service.logIn(SyncCredentials(username: bobName, password: "password-b")).token)
            try await body(service, ann, bob)
        }
        switch kind {
        case .sqlite: try await run(SQLiteSyncStorage(path: TestFiles.temporaryPath()))
        case .postgres: try await TestPostgres.withStorage { try await run($0) }
        }
    }

    func created(_ ids: [SyncID], title: String, at offset: Int64) -> SyncChange {
        SyncChange(table: "notes", ids: ids, created: Stamps.at(offset), values: ["title": .text(title), "done": .integer(0)],
                   stamps: ["title": Stamps.at(offset), "done": Stamps.at(offset)])
    }

    @Test(arguments: kinds)
    func pushesMergePerPropertyAndARepeatedPushAppliesNothing(_ kind: Kind) async throws {
        try await withService(kind) { service, ann, _ in
            let replica = Stamps.a
            let create = SyncPushRequest(replica: replica, changes: [created([.integer(1)], title: "first", at: 0)])
            #expect(try await service.push(create, accountID: ann) == SyncPushResponse(received: 1, applied: 1))
            #expect(try await service.push(create, accountID: ann) == SyncPushResponse(received: 1, applied: 0))
            let edits = SyncPushRequest(replica: replica, changes: [
                SyncChange(table: "notes", ids: [.integer(1)], values: ["title": .text("later")], stamps: ["title": Stamps.at(10, Stamps.b)]),
                SyncChange(table: "notes", ids: [.integer(1)], values: ["done": .integer(1)], stamps: ["done": Stamps.at(5)]),
                SyncChange(table: "notes", ids: [.integer(1)], values: ["title": .text("older")], stamps: ["title": Stamps.at(7)]),
            ])
            #expect(try await service.push(edits, accountID: ann).applied == 1)
            let pulled = try await service.pull(since: nil, limit: nil, accountID: ann)
            #expect(pulled.changes.count == 1 && !pulled.more)
            #expect(pulled.changes[0].values == ["title": .text("later"), "done": .integer(1)])
            #expect(pulled.changes[0].created == Stamps.at(0))
        }
    }

    @Test(arguments: kinds)
    func oneAccountNeverSeesAnothers(_ kind: Kind) async throws {
        try await withService(kind) { service, ann, bob in
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: [created([.integer(1)], title: "ann's", at: 0)]), accountID: ann)
            _ = try await service.push(SyncPushRequest(replica: Stamps.b, changes: [created([.integer(1)], title: "bob's", at: 0)]), accountID: bob)
            #expect(try await service.pull(since: nil, limit: nil, accountID: ann).changes.map(\.values) == [["title": .text("ann's"), "done": .integer(0)]])
            #expect(try await service.pull(since: nil, limit: nil, accountID: bob).changes.map(\.values) == [["title": .text("bob's"), "done": .integer(0)]])
        }
    }

    @Test(arguments: kinds)
    func pullsPageByTokenAndReturnOnlyWhatChangedAfterIt(_ kind: Kind) async throws {
        try await withService(kind) { service, ann, _ in
            let changes = (1...5).map { created([.integer(Int64($0))], title: "n\($0)", at: Int64($0)) }
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: changes), accountID: ann)
            var token: String?
            var seen: [SyncID] = []
            var pages = 0
            repeat {
                let page = try await service.pull(since: token, limit: 2, accountID: ann)
                seen += page.changes.flatMap(\.ids)
                token = page.token
                pages += 1
                if !page.more { break }
            } while pages < 10
            #expect(seen == (1...5).map { .integer(Int64($0)) } && pages == 3)
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: [
                SyncChange(table: "notes", ids: [.integer(3)], values: ["done": .integer(1)], stamps: ["done": Stamps.at(50)]),
            ]), accountID: ann)
            let next = try await service.pull(since: token, limit: nil, accountID: ann)
            #expect(next.changes == [SyncChange(table: "notes", ids: [.integer(3)], values: ["done": .integer(1)], stamps: ["done": Stamps.at(50)])])
            await #expect(throws: SyncServiceError.self) { try await service.pull(since: "not-a-token", limit: nil, accountID: ann) }
        }
    }

    /// An object created in an earlier page's range and edited since comes in a later page whole:
    /// its creation and every property changed after the pull's first token, not only its edit.
    @Test(arguments: kinds)
    func aPullOfManyPagesSendsAnObjectEditedSinceItsCreationWhole(_ kind: Kind) async throws {
        try await withService(kind) { service, ann, _ in
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: [created([.integer(0)], title: "n0", at: 0)]), accountID: ann)
            let before = try await service.pull(since: nil, limit: nil, accountID: ann).token  // past object 0
            let changes = (1...3).map { created([.integer(Int64($0))], title: "n\($0)", at: Int64($0)) }
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: changes), accountID: ann)
            let edit = SyncChange(table: "notes", ids: [.integer(1)], values: ["title": .text("edited")], stamps: ["title": Stamps.at(50)])
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: [edit]), accountID: ann)
            // From the token first: the pull that reaches the end collects, which would put it out of date.
            for start in [before, nil] {
                var token = start
                var received: [SyncID: SyncRecord] = [:]
                var pages = 0
                repeat {
                    // As another replica (the one that wrote them would be left out of a pull from a token).
                    let page = try await service.pull(since: token, limit: 1, replica: Stamps.b, accountID: ann)
                    for change in page.changes { for id in change.ids { received[id, default: SyncRecord()].merge(change.record) } }
                    token = page.token
                    pages += 1
                    if !page.more { break }
                } while pages < 10
                #expect(pages == (start == nil ? 4 : 3))
                let first = try #require(received[.integer(1)])
                #expect(first.created == Stamps.at(1) && first.values == ["title": .text("edited"), "done": .integer(0)])
                #expect(received.values.allSatisfy(\.exists) && received.keys.sorted() == (start == nil ? [0, 1, 2, 3] : [1, 2, 3]).map { SyncID.integer($0) })
                // The last page's token counts from where it ends: nothing comes again.
                #expect(try await service.pull(since: token, limit: nil, accountID: ann).changes.isEmpty)
            }
        }
    }

    /// A token of the first version (no separate number for where the changes count from), as
    /// replicas hold them from before: a pull refuses it, so that the replica pulls everything
    /// again (its old pages may have skipped creations); a push still takes it for its check.
    @Test func aTokenOfTheFirstVersionIsRefusedByAPullAndTakenByAPush() async throws {
        let storage = try SQLiteSyncStorage(path: TestFiles.temporaryPath())
        let service = SyncService(storage: storage, bcryptCost: 4, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let name = uniqueUsername("ann")
        try await service.createAccount(SyncCredentials(username: name, password: "password-a"))
        let ann = try await service.account(forToken: service.logIn(SyncCredentials(username: name, password: "password-a")).token)
        let changes = (1...2).map { created([.integer(Int64($0))], title: "n\($0)", at: Int64($0)) }
        _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: changes), accountID: ann)
        let databaseID = try await storage.databaseID()
        let firstVersion = Data("v1:\(databaseID):1:0".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        await #expect(throws: SyncServiceError.invalidToken) { try await service.pull(since: firstVersion, limit: nil, accountID: ann) }
        let edit = SyncChange(table: "notes", ids: [.integer(1)], values: ["title": .text("edited")], stamps: ["title": Stamps.at(50)])
        #expect(try await service.push(SyncPushRequest(replica: Stamps.a, changes: [edit], since: firstVersion), accountID: ann).applied == 1)
        let everything = try await service.pull(since: nil, limit: nil, accountID: ann)
        #expect(everything.changes.flatMap(\.ids).count == 2)
        #expect(try await service.pull(since: everything.token, limit: nil, accountID: ann).changes.isEmpty)
    }

    @Test(arguments: kinds)
    func tenThousandMarkedReadAreStoredAndServedAsOneChange(_ kind: Kind) async throws {
        try await withService(kind) { service, ann, _ in
            let ids = (1...10_000).map { SyncID.string("article-\($0)") }
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: [
                SyncChange(table: "articles", ids: ids, created: Stamps.at(0), values: ["read": .integer(0)], stamps: ["read": Stamps.at(0)]),
            ]), accountID: ann)
            let first = try await service.pull(since: nil, limit: 10_000, accountID: ann)
            let marked = SyncChange(table: "articles", ids: ids, values: ["read": .integer(1)], stamps: ["read": Stamps.at(9)])
            #expect(try await service.push(SyncPushRequest(replica: Stamps.a, changes: [marked]), accountID: ann).applied == 10_000)
            let pulled = try await service.pull(since: first.token, limit: 10_000, accountID: ann)
            #expect(pulled.changes == [marked])
        }
    }

    @Test(arguments: kinds)
    func aDeletionWinsAndIsServedAsItsStampAlone(_ kind: Kind) async throws {
        try await withService(kind) { service, ann, _ in
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: [created([.integer(1)], title: "x", at: 0)]), accountID: ann)
            let token = try await service.pull(since: nil, limit: nil, accountID: ann).token
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: [
                SyncChange(table: "notes", ids: [.integer(1)], deleted: Stamps.at(5)),
                SyncChange(table: "notes", ids: [.integer(1)], values: ["title": .text("late edit")], stamps: ["title": Stamps.at(9, Stamps.b)]),
            ]), accountID: ann)
            let pulled = try await service.pull(since: token, limit: nil, accountID: ann)
            #expect(pulled.changes == [SyncChange(table: "notes", ids: [.integer(1)], deleted: Stamps.at(5))])
        }
    }

    @Test(arguments: kinds)
    func badChangesAreRefusedWhole(_ kind: Kind) async throws {
        try await withService(kind) { service, ann, _ in
            let good = created([.integer(1)], title: "fine", at: 0)
            let bad = SyncChange(table: "notes", ids: [], deleted: Stamps.at(1))
            await #expect(throws: SyncServiceError.invalidChange("change 1: a change of notes names no object")) {
                try await service.push(SyncPushRequest(replica: Stamps.a, changes: [good, bad]), accountID: ann)
            }
            let ahead = SyncChange(table: "notes", ids: [.integer(2)], deleted: SyncStamp(milliseconds: 1_800_000_000_000 + 2 * 86_400_000, counter: 0, replica: Stamps.a))
            await #expect(throws: SyncServiceError.self) { try await service.push(SyncPushRequest(replica: Stamps.a, changes: [ahead]), accountID: ann) }
            let tooMany = SyncChange(table: "notes", ids: (0...50_000).map { SyncID.integer(Int64($0)) }, deleted: Stamps.at(1))
            await #expect(throws: SyncServiceError.self) { try await service.push(SyncPushRequest(replica: Stamps.a, changes: [tooMany]), accountID: ann) }
            let stored = try await service.pull(since: nil, limit: nil, accountID: ann)
            #expect(stored.changes.isEmpty)
        }
    }
}
