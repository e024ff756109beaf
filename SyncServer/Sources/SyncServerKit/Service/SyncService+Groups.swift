import Foundation
import QSDataSync

/// Groups shared between accounts. The owner adds and takes out members; a member may leave;
/// the owner can't (the group would have no one to manage it). Every push, pull and blob call
/// that names a group is refused unless the account is a member.
extension SyncService {
    public func createGroup(_ request: SyncGroupRequest, accountID: Int64) async throws -> SyncGroup {
        let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...SyncGroup.maximumNameLength).contains(name.count) else {
            throw SyncServiceError.invalidGroup("a group's name is 1–\(SyncGroup.maximumNameLength) characters, not only spaces")
        }
        var generator = SystemRandomNumberGenerator()
        let id = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        return try await wire(try await storage.createGroup(id: id, name: name, ownerID: accountID))
    }

    /// The groups the account belongs to.
    public func groups(accountID: Int64) async throws -> SyncGroupList {
        var groups: [SyncGroup] = []
        for group in try await storage.groups(memberID: accountID) { groups.append(try await wire(group)) }
        return SyncGroupList(groups: groups)
    }

    /// Adds `username` to the group (the owner's call); adding a member again changes nothing.
    public func addMember(_ username: String, toGroup id: String, accountID: Int64) async throws -> SyncGroup {
        let group = try await memberGroup(id, accountID: accountID)
        guard group.ownerID == accountID else { throw SyncServiceError.notGroupOwner(id) }
        try await storage.addMember(try await person(username), toGroup: group.space)
        return try await wire(group)
    }

    /// Takes `username` out of the group: the owner's call, or a member's about itself. Its
    /// devices remove the group's objects at their next sync.
    public func removeMember(_ username: String, fromGroup id: String, accountID: Int64) async throws -> SyncGroup {
        let group = try await memberGroup(id, accountID: accountID)
        let member = try await person(username)
        guard group.ownerID == accountID || member == accountID else { throw SyncServiceError.notGroupOwner(id) }
        guard member != group.ownerID else { throw SyncServiceError.ownerCannotLeave(id) }
        try await storage.removeMember(member, fromGroup: group.space)
        return try await wire(group)
    }

    /// Where a call's objects are kept: the account's own space without a group, the group's
    /// when the account is one of its members.
    func space(group id: String?, accountID: Int64) async throws -> Int64 {
        guard let id else { return accountID }
        return try await memberGroup(id, accountID: accountID).space
    }

    /// The group `id`, refused unless `accountID` is a member.
    private func memberGroup(_ id: String, accountID: Int64) async throws -> StoredGroup {
        guard SyncGroup.isGroupID(id), let group = try await storage.group(id: id) else { throw SyncServiceError.groupNotFound(id) }
        guard try await storage.isMember(accountID, ofGroup: group.space) else { throw SyncServiceError.notAMember(id) }
        return group
    }

    /// The account of a person's username (never a group's space).
    private func person(_ username: String) async throws -> Int64 {
        guard Self.isUsername(username), let account = try await storage.account(username: username) else {
            throw SyncServiceError.userNotFound(username)
        }
        return account.id
    }

    private func wire(_ group: StoredGroup) async throws -> SyncGroup {
        SyncGroup(id: group.id, name: group.name, owner: group.owner, members: try await storage.members(ofGroup: group.space))
    }
}
