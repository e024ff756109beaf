import Foundation
import QSData
import QSDataSync
import SyncServerKit
import Testing

/// Groups on both storages: a group's objects are kept apart from every account's, only
/// members reach them, the owner manages members, and a member taken out no longer holds back
/// the group's collection.
struct GroupTests {
    typealias Kind = StorageTests.Kind

    struct Person {
        let name: String
        let id: Int64
    }

    /// A service over a fresh storage of `kind`, its replicas away after an hour of `clock`,
    /// with three people.
    func withService(
        _ kind: Kind, clock: CollectionTests.Clock = CollectionTests.Clock(),
        _ body: (SyncService, [Person], any SyncStorage) async throws -> Void
    ) async throws {
        func run(_ storage: any SyncStorage) async throws {
            let service = SyncService(storage: storage, bcryptCost: 4, inactiveAfter: 3600, now: { clock.now })
            var people: [Person] = []
            for name in ["ann", "bob", "cat"].map(uniqueUsername) {
                try await service.createAccount(SyncCredentials(username: name, password: "password-\(name)"))
                let id = try await service.account(forToken: service.logIn(SyncCredentials(username: name, password: "password-\(name)")).token)
                people.append(Person(name: name, id: id))
            }
            try await body(service, people, storage)
        }
        switch kind {
        case .sqlite: try await run(SQLiteSyncStorage(path: TestFiles.temporaryPath()))
        case .postgres: try await TestPostgres.withStorage { try await run($0) }
        }
    }

    func card(_ id: Int64, _ title: String, at offset: Int64) -> SyncChange {
        SyncChange(table: "cards", ids: [.integer(id)], created: Stamps.at(offset), values: ["title": .text(title)])
    }

    @Test(arguments: StorageTests.kinds)
    func onlyMembersReachAGroupsObjectsWhichAreKeptApartFromEveryAccounts(_ kind: Kind) async throws {
        try await withService(kind) { service, people, _ in
            let (ann, bob, cat) = (people[0], people[1], people[2])
            let group = try await service.createGroup(SyncGroupRequest(name: "  Family "), accountID: ann.id)
            #expect(SyncGroup.isGroupID(group.id) && group.name == "Family" && group.owner == ann.name && group.members == [ann.name])
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: [card(1, "shared", at: 0)], group: group.id), accountID: ann.id)
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: [card(2, "ann's own", at: 0)]), accountID: ann.id)

            // Bob is not a member yet: every call naming the group is refused.
            let notAMember = SyncServiceError(status: 403, code: "notAMember", message: "this account is not a member of group \(group.id): its objects are not this account's to read or write")
            await #expect(throws: notAMember) { try await service.pull(since: nil, limit: nil, group: group.id, accountID: bob.id) }
            await #expect(throws: notAMember) {
                try await service.push(SyncPushRequest(replica: Stamps.b, changes: [card(3, "intruder", at: 1)], group: group.id), accountID: bob.id)
            }
            let blob = SyncBlobReference(of: Data("bytes".utf8))
            await #expect(throws: notAMember) { try await service.blobStatus(blob, group: group.id, accountID: bob.id) }
            await #expect(throws: notAMember) { try await service.downloadBlob(blob, group: group.id, accountID: bob.id) }
            await #expect(throws: SyncServiceError.self) { try await service.pull(since: nil, limit: nil, group: String(repeating: "0", count: 32), accountID: bob.id) }
            await #expect(throws: SyncServiceError.self) { try await service.pull(since: nil, limit: nil, group: "../etc", accountID: bob.id) }
            #expect(try await service.groups(accountID: bob.id).groups.isEmpty)

            // Only the owner adds; then Bob pulls the group's objects, and only them.
            await #expect(throws: SyncServiceError.self) { try await service.addMember(cat.name, toGroup: group.id, accountID: bob.id) }
            #expect(try await service.addMember(bob.name, toGroup: group.id, accountID: ann.id).members == [ann.name, bob.name].sorted())
            await #expect(throws: SyncServiceError(status: 404, code: "userNotFound", message: "no account nobody-here")) {
                try await service.addMember("nobody-here", toGroup: group.id, accountID: ann.id)
            }
            await #expect(throws: SyncServiceError.self) { try await service.addMember("group:\(group.id)", toGroup: group.id, accountID: ann.id) }
            #expect(try await service.groups(accountID: bob.id).groups.map(\.id) == [group.id])
            let shared = try await service.pull(since: nil, limit: nil, group: group.id, accountID: bob.id)
            #expect(shared.changes.flatMap(\.ids) == [.integer(1)])
            #expect(try await service.pull(since: nil, limit: nil, accountID: bob.id).changes.isEmpty, "Bob's own space holds nothing")
            #expect(try await service.pull(since: nil, limit: nil, accountID: ann.id).changes.flatMap(\.ids) == [.integer(2)])
            _ = try await service.push(
                SyncPushRequest(replica: Stamps.b, changes: [card(3, "bob's", at: 1)], since: shared.token, group: group.id), accountID: bob.id)
            #expect(try await service.pull(since: shared.token, limit: nil, group: group.id, accountID: ann.id).changes.flatMap(\.ids) == [.integer(3)])

            // A token names its space: one of the group's is no token of an account's, and the reverse.
            await #expect(throws: SyncServiceError.invalidToken) { try await service.pull(since: shared.token, limit: nil, accountID: bob.id) }
            let own = try await service.pull(since: nil, limit: nil, accountID: bob.id).token
            await #expect(throws: SyncServiceError.invalidToken) { try await service.pull(since: own, limit: nil, group: group.id, accountID: bob.id) }
            await #expect(throws: SyncServiceError.resyncRequired) {
                try await service.push(SyncPushRequest(replica: Stamps.b, changes: [card(4, "x", at: 2)], since: own, group: group.id), accountID: bob.id)
            }

            // Members leave; the owner can't; Bob can't take Ann out.
            await #expect(throws: SyncServiceError.self) { try await service.removeMember(ann.name, fromGroup: group.id, accountID: bob.id) }
            await #expect(throws: SyncServiceError.self) { try await service.removeMember(ann.name, fromGroup: group.id, accountID: ann.id) }
            #expect(try await service.removeMember(bob.name, fromGroup: group.id, accountID: bob.id).members == [ann.name])
            await #expect(throws: notAMember) { try await service.pull(since: shared.token, limit: nil, group: group.id, accountID: bob.id) }
            #expect(try await service.groups(accountID: bob.id).groups.isEmpty)
            await #expect(throws: SyncServiceError.self) { try await service.createGroup(SyncGroupRequest(name: "   "), accountID: ann.id) }

            // A group's space is no one's account.
            await #expect(throws: SyncServiceError.wrongCredentials) {
                try await service.logIn(SyncCredentials(username: "group:\(group.id)", password: "anything at all"))
            }
        }
    }

    @Test(arguments: StorageTests.kinds)
    func aMemberTakenOutNoLongerHoldsBackTheGroupsCollection(_ kind: Kind) async throws {
        let clock = CollectionTests.Clock()
        try await withService(kind, clock: clock) { service, people, storage in
            let (ann, bob) = (people[0], people[1])
            let group = try await service.createGroup(SyncGroupRequest(name: "Family"), accountID: ann.id)
            #expect(try await service.addMember(bob.name, toGroup: group.id, accountID: ann.id).members == [ann.name, bob.name].sorted())
            guard let space = try await storage.group(id: group.id)?.space else { throw SyncStorageError.unreadableRecord(table: "groups", id: group.id) }
            func pull(_ person: Person, _ replica: SyncReplicaID, since token: String?, group: String?) async throws -> String {
                try await service.pull(since: token, limit: nil, replica: replica, group: group, accountID: person.id).token
            }
            var annToken = try await pull(ann, Stamps.a, since: nil, group: group.id)
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: [card(1, "one", at: 0), card(2, "two", at: 0)], since: annToken, group: group.id), accountID: ann.id)
            // Bob's replica pulls its own account, then the group (as a client does), and goes quiet.
            _ = try await pull(bob, Stamps.b, since: nil, group: nil)
            _ = try await pull(bob, Stamps.b, since: nil, group: group.id)
            annToken = try await pull(ann, Stamps.a, since: annToken, group: group.id)
            let deletion = SyncChange(table: "cards", ids: [.integer(1)], deleted: Stamps.at(10))
            _ = try await service.push(SyncPushRequest(replica: Stamps.a, changes: [deletion], since: annToken, group: group.id), accountID: ann.id)
            annToken = try await pull(ann, Stamps.a, since: annToken, group: group.id)
            annToken = try await pull(ann, Stamps.a, since: annToken, group: group.id)
            #expect(try await storage.recordCount(accountID: space) == 2, "Bob's replica has not pulled the deletion: it is kept")

            _ = try await service.removeMember(bob.name, fromGroup: group.id, accountID: ann.id)
            annToken = try await pull(ann, Stamps.a, since: annToken, group: group.id)
            #expect(try await storage.recordCount(accountID: space) == 1, "with Bob out, the deletion is collected at once")
            #expect(try await storage.recordCount(accountID: ann.id) == 0)
        }
    }
}
