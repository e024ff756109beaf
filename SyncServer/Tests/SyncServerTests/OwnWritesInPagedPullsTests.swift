import Foundation
import QSDataSync
import SyncServerKit
import Testing

/// A pull with a token leaves out what the pulling replica wrote, in every page; a pull without
/// one brings everything the server holds, the replica's own writes included, in every page.
struct OwnWritesInPagedPullsTests {
    typealias Kind = StorageTests.Kind

    /// Pulls until nothing more comes, `limit` objects a page, as `replica`: the IDs sent, and the
    /// last token.
    func pullPages(
        _ service: SyncService, _ account: Int64, as replica: SyncReplicaID, since token: String?, limit: Int
    ) async throws -> (ids: [SyncID], token: String) {
        var token = token
        var ids: [SyncID] = []
        while true {
            let page = try await service.pull(since: token, limit: limit, replica: replica, accountID: account)
            ids += page.changes.flatMap(\.ids)
            token = page.token
            if !page.more, let token { return (ids, token) }
        }
    }

    /// A replica that first pulled the account while it was empty holds a token counting from 0,
    /// as a pull without a token does: the pages of its next pull still leave its writes out.
    @Test(arguments: StorageTests.kinds)
    func aReplicaThatPulledAnEmptyAccountGetsNoneOfItsOwnWritesBackInAnyPage(_ kind: Kind) async throws {
        try await CollectionTests().withService(kind, clock: .init()) { service, account, _ in
            let a = Stamps.a, b = Stamps.b
            let first = try await pullPages(service, account, as: a, since: nil, limit: 10)
            #expect(first.ids.isEmpty)
            let notes = (1...25).map { CollectionTests().note(Int64($0), at: Int64($0), a) }
            _ = try await service.push(SyncPushRequest(replica: a, changes: notes, since: first.token), accountID: account)

            let own = try await pullPages(service, account, as: a, since: first.token, limit: 10)
            #expect(own.ids == [], "its own writes came back")

            let everything = Set((1...25).map { SyncID.integer(Int64($0)) })
            let other = try await pullPages(service, account, as: b, since: nil, limit: 10)
            #expect(other.ids.count == 25 && Set(other.ids) == everything)
            let again = try await pullPages(service, account, as: a, since: nil, limit: 10)
            #expect(again.ids.count == 25 && Set(again.ids) == everything, "a pull without a token brings them, in every page")

            // After the pull without a token, the next pull leaves them out again.
            _ = try await service.push(SyncPushRequest(replica: a, changes: [CollectionTests().note(26, at: 26, a)], since: again.token), accountID: account)
            let next = try await pullPages(service, account, as: a, since: again.token, limit: 10)
            #expect(next.ids == [])
        }
    }
}
