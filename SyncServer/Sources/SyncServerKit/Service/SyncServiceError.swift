import QSDataSync

/// What a request did wrong, or what kept the server from answering it: each has the HTTP
/// status and the protocol's error code it is answered with.
public struct SyncServiceError: Error, Equatable, CustomStringConvertible {
    public let status: Int
    public let code: String
    public let message: String

    public init(status: Int, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var description: String { "\(status) \(code): \(message)" }

    static func invalidCredentials(_ message: String) -> Self { Self(status: 400, code: "invalidCredentials", message: message) }
    static let usernameTaken = Self(status: 409, code: "usernameTaken", message: "the username is taken")
    public static let wrongCredentials = Self(status: 401, code: "wrongCredentials", message: "unknown username or wrong password")
    static let unauthorized = Self(status: 401, code: "unauthorized", message: "no valid session token: log in for one")
    static func tooManyAttempts(retryAfter seconds: Int) -> Self {
        Self(status: 429, code: "tooManyAttempts", message: "too many failed logins; try again in \(seconds) s")
    }
    public static func invalidChange(_ message: String) -> Self { Self(status: 400, code: "invalidChange", message: message) }
    static func stampTooFarAhead(_ stamp: SyncStampText) -> Self {
        Self(status: 400, code: "stampTooFarAhead", message: "the stamp \(stamp) is more than 24 hours ahead of the server's clock: the device's clock is wrong")
    }
    static func tooLarge(_ message: String) -> Self { Self(status: 413, code: "tooLarge", message: message) }
    static func invalidBlobPart(_ message: String) -> Self { Self(status: 400, code: "invalidBlobPart", message: message) }
    static func blobMismatch(_ blob: SyncBlobReference) -> Self {
        Self(status: 400, code: "blobMismatch", message: "the parts of \(blob) have another digest or size: send them again")
    }
    static func blobNotFound(_ blob: SyncBlobReference) -> Self { Self(status: 404, code: "blobNotFound", message: "no whole blob \(blob.sha256)") }
    static func blobMissing(_ blob: SyncBlobReference) -> Self {
        Self(status: 409, code: "blobMissing", message: "upload blob \(blob.sha256) first")
    }
    public static let resyncRequired = Self(
        status: 410, code: "resyncRequired",
        message: "this server removed deletions this replica has not pulled: pull everything again (without since), then push")
    public static let invalidToken = Self(status: 400, code: "invalidToken", message: "not a pull token of this server: pull again without since")
    static func malformedBody(_ message: String) -> Self { Self(status: 400, code: "malformedBody", message: message) }
    static func invalidGroup(_ message: String) -> Self { Self(status: 400, code: "invalidGroup", message: message) }
    static func groupNotFound(_ id: String) -> Self { Self(status: 404, code: "groupNotFound", message: "no group \(id)") }
    static func notAMember(_ id: String) -> Self {
        Self(status: 403, code: "notAMember", message: "this account is not a member of group \(id): its objects are not this account's to read or write")
    }
    static func notGroupOwner(_ id: String) -> Self {
        Self(status: 403, code: "notGroupOwner", message: "only the owner of group \(id) adds members and takes others out")
    }
    static func ownerCannotLeave(_ id: String) -> Self {
        Self(status: 409, code: "ownerCannotLeave", message: "the owner of group \(id) can't leave it")
    }
    static func userNotFound(_ username: String) -> Self { Self(status: 404, code: "userNotFound", message: "no account \(username)") }
    /// The database did not answer (down, frozen, restarting): try again later.
    public static func unavailable(_ reason: String) -> Self {
        Self(status: 503, code: "unavailable", message: "the database is unavailable: \(reason)")
    }
}

/// A stamp's text, in error messages.
typealias SyncStampText = String
