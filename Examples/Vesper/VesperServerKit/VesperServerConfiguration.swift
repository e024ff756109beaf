import Foundation

/// Everything `vesper-server` needs to run: where it listens, where it keeps data, its secret
/// and its limits.
///
/// ```swift
/// let configuration = VesperServerConfiguration(
///     database: .sqlite(path: "/var/lib/vesper/vesper.sqlite"), attachmentsPath: "/var/lib/vesper/attachments",
///     secret: "…")
/// ```
///
/// Several instances on one PostgreSQL database need the same `secret` and `textKeys`, so that
/// a token or blob URL one instance signs is valid on every other and every instance can open
/// every note:
///
/// ```swift
/// let shared = VesperServerConfiguration(
///     database: .postgres(url: "postgres://vesper:password@db.internal/vesper"), attachmentsPath: "",
///     secret: "the same secret on every instance")
/// ```
public struct VesperServerConfiguration: Sendable {
    /// The address to bind.
    public var hostname: String
    /// The port to bind; 0 picks a free one.
    public var port: Int
    /// The SQLite file (created when missing; its folder must exist) or the PostgreSQL database.
    public var database: VesperDatabase
    /// The folder for attachment bytes with SQLite storage, one subfolder per user (created when
    /// missing). Unused with PostgreSQL, which keeps the bytes in the database.
    public var attachmentsPath: String
    /// The secret login tokens and blob URLs are signed with, and the default text key derives
    /// from. Random when nil, which suits tests on SQLite only: tokens and the default text key
    /// then die with the process. Required with PostgreSQL, where every instance must share it.
    public var secret: String?
    /// How long a login token is valid (24 hours by default); a client whose token has expired
    /// gets 401 and logs in again with the stored credentials, as the protocol describes.
    public var tokenLifetime: Duration
    /// The largest request body accepted (a first sync uploads every note in one body); larger → 413.
    public var maxBodyBytes: Int
    /// The most notes one notes request may upload; more → 413 with nothing written. The
    /// client sends at most 1,000 (and 8 MB) a request.
    public var maxNotesPerRequest: Int = 1_000
    /// The most note IDs one deletedNotes request may upload; more → 413 with nothing written,
    /// so that one request can't hold the database for long. The client sends at most 5,000.
    public var maxDeletedNotesPerRequest: Int = 10_000
    /// Failed logins allowed per username from one client address in any minute (ten times as
    /// many per address over all usernames), and account creations per address; more → 429.
    public var loginAttemptsPerMinute: Int

    /// How long a call to PostgreSQL may take: PostgreSQL cancels a longer statement, and a call
    /// with no answer by then — the database down, restarting, or its connection dead — fails
    /// with 503 rather than waiting. Unused with SQLite.
    public var databaseTimeout: Duration = .seconds(10)

    /// Note-text encryption keys by ID: 32 raw bytes each. Key 0 is derived from `secret` unless
    /// given here. Rotate by adding a key with a higher ID: new writes use `currentTextKeyID`
    /// (the highest ID by default) and rows sealed with older keys stay readable.
    public var textKeys: [Int: Data] = [:]
    /// The key new writes are sealed with; the highest configured ID when nil.
    public var currentTextKeyID: Int?
    /// bcrypt's cost factor (2^cost rounds).
    public var bcryptCost: UInt8 = 10
    /// The largest attachment accepted by a blob upload.
    public var maxBlobBytes: Int = 50 << 20
    /// How long a password-reset link stays valid.
    public var passwordResetLifetime: Duration = .seconds(3_600)
    /// How long an upload or download URL stays valid.
    public var blobURLLifetime: Duration = .seconds(300)
    /// Request-head and idle timeouts and the connection cap.
    public var connectionLimits = ConnectionLimits()
    /// The externally visible base URL, such as `https://vesper.example.com/`, used in blob
    /// URLs. When nil they are built from the request's `Host` header over http.
    public var publicBaseURL: URL?
    /// The server's clock: token, reset-link and blob-URL expiry, login throttling and the
    /// dates of sync writes all read it. The system clock by default; tests pass a clock they
    /// move by hand, so that expiry is tested without waiting.
    public var now: @Sendable () -> Date = { Date() }

    public init(
        hostname: String = "127.0.0.1", port: Int = 0, database: VesperDatabase, attachmentsPath: String,
        secret: String? = nil, tokenLifetime: Duration = .seconds(86_400),
        maxBodyBytes: Int = 64 << 20, loginAttemptsPerMinute: Int = 10
    ) {
        self.hostname = hostname
        self.port = port
        self.database = database
        self.attachmentsPath = attachmentsPath
        self.secret = secret
        self.tokenLifetime = tokenLifetime
        self.maxBodyBytes = maxBodyBytes
        self.loginAttemptsPerMinute = loginAttemptsPerMinute
    }

    /// A new random server secret (32 bytes from the system's secure generator, base64), for a
    /// server started without one.
    public static func newSecret() -> String {
        ServerKeys.randomSecret()
    }
}
