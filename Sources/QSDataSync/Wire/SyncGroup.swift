import Foundation

/// A group shared between accounts: the objects that name it (in the property their type's
/// `syncGroup` key names) sync between every member's devices, and only theirs. The server
/// gives a group its ID when it is made; its owner adds and removes members, and any member
/// may leave. A member taken out loses the group's objects from its devices at their next sync.
///
/// `POST /v1/groups` (make one), `GET /v1/groups` (the account's), `PUT` and `DELETE
/// /v1/groups/ID/members/USERNAME` (add, take out).
public struct SyncGroup: Codable, Sendable, Equatable, Hashable {
    /// The server's name for the group: 32 lowercase hex digits.
    public var id: String
    public var name: String
    /// The username of the account that made it.
    public var owner: String
    /// Every member's username, the owner's included, in order.
    public var members: [String]

    public init(id: String, name: String, owner: String, members: [String]) {
        self.id = id
        self.name = name
        self.owner = owner
        self.members = members
    }

    /// Whether `text` has the form of a group ID (32 lowercase hex digits).
    public static func isGroupID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The longest name a group may have, in characters.
    public static let maximumNameLength = 200
}

/// `POST /v1/groups`: the new group's name.
public struct SyncGroupRequest: Codable, Sendable, Equatable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

/// `GET /v1/groups`: the groups the account belongs to, by ID.
public struct SyncGroupList: Codable, Sendable, Equatable {
    public var groups: [SyncGroup]

    public init(groups: [SyncGroup]) {
        self.groups = groups
    }
}
