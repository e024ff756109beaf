import Foundation

/// The version of the sync protocol these types speak: the path prefix of every endpoint
/// (`/v1/…`). See `Docs/SyncProtocol.md` for the protocol itself.
public enum SyncProtocol {
    public static let version = 1
    public static let pathPrefix = "/v1"
    /// The most objects one push may name, over all its changes.
    public static let maximumObjectsPerPush = 50_000
    /// The most objects one pull returns, and what it returns when the client asks for no limit.
    public static let maximumPullLimit = 10_000
    public static let defaultPullLimit = 2_000
    /// How far ahead of a clock a stamp may be: the server refuses a push carrying a stamp
    /// further ahead of its clock, and a replica a pulled change carrying one further ahead of
    /// its own (its next edits would be stamped after it, and refused).
    public static let stampLeeway: TimeInterval = 24 * 60 * 60
}

/// `POST /v1/push`: the replica's changes since it last pushed.
public struct SyncPushRequest: Codable, Sendable, Equatable {
    public var replica: SyncReplicaID
    public var changes: [SyncChange]
    /// The pull token the replica had reached when it read these changes from its queue: a
    /// server that has since collected what the replica had not pulled refuses the push with
    /// `resyncRequired`, so an old push (a long-offline device's, or a request delivered late)
    /// can't bring back what was deleted and collected. Nil before the replica's first pull.
    public var since: String?
    /// The replica's number for this push, one more than its last: a pull tells the replica the
    /// highest number the server has taken (``SyncPullResponse/lastPush``), so a push whose
    /// answer was lost is known to have arrived.
    public var number: Int64?
    /// The group (``SyncGroup/id``) whose objects these are; nil for the account's own. Each
    /// group keeps its own sequence of changes: a push names one, and so does a pull.
    public var group: String?

    public init(replica: SyncReplicaID, changes: [SyncChange], since: String? = nil, number: Int64? = nil, group: String? = nil) {
        self.replica = replica
        self.changes = changes
        self.since = since
        self.number = number
        self.group = group
    }

    /// How many objects the push names.
    public var objectCount: Int { changes.reduce(0) { $0 + $1.ids.count } }
}

/// The answer to a push: how many object changes arrived, and how many of them changed what
/// the server held (a repeated push changes nothing).
public struct SyncPushResponse: Codable, Sendable, Equatable {
    public var received: Int
    public var applied: Int

    public init(received: Int, applied: Int) {
        self.received = received
        self.applied = applied
    }
}

/// `GET /v1/pull?since=TOKEN&limit=N&group=ID`: what changed on the server after `since`
/// (everything, without one), at most `limit` objects, of the group's objects (the account's
/// own, without `group`). `token` is where the next pull starts; `more` says
/// whether it would return something at once.
public struct SyncPullResponse: Codable, Sendable, Equatable {
    public var changes: [SyncChange]
    public var token: String
    public var more: Bool
    /// The highest push ``SyncPushRequest/number`` the server has taken from the pulling
    /// replica (nil when it names none, or took none).
    public var lastPush: Int64?

    public init(changes: [SyncChange], token: String, more: Bool, lastPush: Int64? = nil) {
        self.changes = changes
        self.token = token
        self.more = more
        self.lastPush = lastPush
    }
}

/// `POST /v1/accounts` (create) and `POST /v1/sessions` (log in).
public struct SyncCredentials: Codable, Sendable, Equatable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// The answer to a login: the bearer token every other request carries, and when it expires.
public struct SyncSession: Codable, Sendable, Equatable {
    public var token: String
    public var expiresAt: Date

    public init(token: String, expiresAt: Date) {
        self.token = token
        self.expiresAt = expiresAt
    }
}

/// The body of every error answer: `{"error": {"code": "…", "message": "…"}}`.
public struct SyncErrorResponse: Codable, Sendable, Equatable {
    public struct Detail: Codable, Sendable, Equatable {
        public var code: String
        public var message: String
    }

    public var error: Detail

    public init(code: String, message: String) {
        error = Detail(code: code, message: message)
    }
}

extension SyncProtocol {
    /// The JSON coders of the protocol: dates as ISO 8601 text, keys sorted (so equal bodies are
    /// equal bytes).
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
