import Foundation
import QSDataSync

/// Where the server keeps accounts, sessions, groups and every account's object records. Every
/// call names the account it is for; no call reads or writes another's.
///
/// A group's objects are kept as an account's are, under an account of the group's own that
/// no one logs in to (its username is `group:` and the group's ID, which no person's can be;
/// it has no password): its *space*. Records, replicas' places, collection and blobs work the
/// same for both.
public protocol SyncStorage: Sendable {
    /// Creates the tables when missing (PostgreSQL connects first).
    func prepare() async throws
    /// Creates an account; throws ``SyncStorageError/usernameTaken`` when the name is used.
    func createAccount(username: String, passwordHash: String) async throws
    func account(username: String) async throws -> StoredAccount?
    func saveSession(tokenHash: String, accountID: Int64, expiresAt: Date) async throws
    /// The account a session token (its hash) belongs to, while it has not expired at `now`.
    func accountID(forSession tokenHash: String, now: Date) async throws -> Int64?
    /// Merges `changes` into the account's records in one transaction: all or nothing. Throws
    /// ``SyncStorageError/resyncRequired`` (and merges nothing) when the account collected
    /// records past `base`, the sequence number the pushing replica had pulled to.
    /// `number` is the pushing replica's number for the push, kept (the highest) for its pulls.
    func push(_ changes: [SyncChange], accountID: Int64, base: Int64, replica: SyncReplicaID, number: Int64?) async throws -> SyncPushResponse
    /// The account's records changed after sequence number `after`, in order, at most `limit`,
    /// with how far the account had collected when they were read.
    func pull(accountID: Int64, after: Int64, limit: Int) async throws -> PulledRecords
    /// Notes that `replica` pulled after sequence number `position` at `date` (it holds
    /// everything up to there), and returns the highest push number taken from it.
    func recordPull(accountID: Int64, replica: SyncReplicaID, position: Int64, at date: Date) async throws -> Int64?
    /// Removes what no active replica needs any more (see ``SyncServerRecord/collected()``):
    /// records up to the smallest position of the replicas that pulled since `activeSince`
    /// that the last collection had not reached. With no replica active, nothing.
    func collect(accountID: Int64, activeSince: Date) async throws -> SyncCollection
    /// How many records the account holds, deleted objects' included.
    func recordCount(accountID: Int64) async throws -> Int

    /// Whether the account holds the whole blob, and which parts of it it holds otherwise.
    func blobStatus(accountID: Int64, sha256: String) async throws -> SyncBlobStatus
    /// Keeps part `index` of a blob (noting it at the account's current sequence number).
    func storeBlobPart(accountID: Int64, sha256: String, index: Int, bytes: Data) async throws
    /// The parts of a blob in order, once all `count` are held; nil before.
    func blobParts(accountID: Int64, sha256: String, count: Int) async throws -> [Data]?
    /// Marks the blob whole (its parts joined, their digest checked) or, with nil, forgets its parts.
    func finishBlob(accountID: Int64, sha256: String, bytes: Data?) async throws
    /// A whole blob's bytes.
    func blob(accountID: Int64, sha256: String) async throws -> Data?
    /// How many whole blobs the account holds.
    func blobCount(accountID: Int64) async throws -> Int
    /// Names this database: a token from another one (a replaced database) is refused.
    func databaseID() async throws -> String

    /// Makes a group with its space, owned by `ownerID`, its only member.
    func createGroup(id: String, name: String, ownerID: Int64) async throws -> StoredGroup
    /// The group with this ID, if there is one.
    func group(id: String) async throws -> StoredGroup?
    /// The groups `accountID` is a member of, by ID.
    func groups(memberID accountID: Int64) async throws -> [StoredGroup]
    /// The usernames of the group's members, in order.
    func members(ofGroup space: Int64) async throws -> [String]
    func isMember(_ accountID: Int64, ofGroup space: Int64) async throws -> Bool
    func addMember(_ accountID: Int64, toGroup space: Int64) async throws
    /// Takes the member out, and forgets the places of its replicas in the group: they no
    /// longer hold back the group's collection.
    func removeMember(_ accountID: Int64, fromGroup space: Int64) async throws
}

/// A group as storage keeps it.
public struct StoredGroup: Sendable, Equatable {
    /// The account the group's objects are kept under.
    public let space: Int64
    public let id: String
    public let name: String
    public let ownerID: Int64
    public let owner: String

    public init(space: Int64, id: String, name: String, ownerID: Int64, owner: String) {
        self.space = space
        self.id = id
        self.name = name
        self.ownerID = ownerID
        self.owner = owner
    }

    /// The username of a group's space.
    static func spaceUsername(_ id: String) -> String { "group:\(id)" }
}

public struct StoredAccount: Sendable, Equatable {
    public let id: Int64
    public let username: String
    public let passwordHash: String
}

/// Records a pull returns, with the sequence number of the last and whether more follow.
public struct PulledRecords: Sendable {
    public var records: [(table: String, id: SyncID, record: ServerRecord)]
    public var last: Int64
    public var more: Bool
    /// How far the account had collected once the records were read: a pull after a smaller
    /// number may have missed a deletion.
    public var collectedThrough: Int64 = 0
}

/// What one collection did.
public struct SyncCollection: Sendable, Equatable {
    /// The sequence number every record up to which has been collected.
    public var through: Int64
    /// Records of deleted objects removed.
    public var removed = 0
    /// Records that lost the list children they had taken out.
    public var trimmed = 0
    /// Blobs no live object names any more, removed.
    public var blobsRemoved = 0

    public init(through: Int64, removed: Int = 0, trimmed: Int = 0, blobsRemoved: Int = 0) {
        self.through = through
        self.removed = removed
        self.trimmed = trimmed
        self.blobsRemoved = blobsRemoved
    }
}

public enum SyncStorageError: Error, Equatable, CustomStringConvertible {
    case usernameTaken
    /// A stored record could not be read back (the database was edited by hand?).
    case unreadableRecord(table: String, id: String)
    case notASyncServerDatabase(path: String)
    /// The replica has not pulled what the account collected since: it must pull everything again.
    case resyncRequired

    public var description: String {
        switch self {
        case .usernameTaken: "the username is taken"
        case .unreadableRecord(let table, let id): "the stored record of \(table) \(id) can't be read"
        case .notASyncServerDatabase(let path): "\(path) is not a sync server database"
        case .resyncRequired: "the replica must pull everything again"
        }
    }
}
