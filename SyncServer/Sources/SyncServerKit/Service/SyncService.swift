import Foundation
import QSDataSync

/// The protocol's operations, without HTTP: accounts, sessions, push and pull, with every
/// check the protocol names. The HTTP server calls it; so can a test, in process.
public struct SyncService: Sendable {
    public let storage: any SyncStorage
    /// How long a session token lasts.
    public let sessionLifetime: TimeInterval
    /// The server's clock (a test's may be set by hand).
    public let now: @Sendable () -> Date
    private let passwords: PasswordHashing
    private let throttle: LoginThrottle

    /// How far ahead of the server's clock a stamp may be.
    public static let stampLeeway: TimeInterval = 24 * 60 * 60

    public init(
        storage: any SyncStorage, sessionLifetime: TimeInterval = 30 * 24 * 60 * 60, bcryptCost: UInt8 = 10,
        loginFailuresAllowed: Int = 10, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.storage = storage
        self.sessionLifetime = sessionLifetime
        self.now = now
        passwords = PasswordHashing(cost: bcryptCost)
        throttle = LoginThrottle(failuresAllowed: loginFailuresAllowed)
    }

    public func createAccount(_ credentials: SyncCredentials) async throws {
        try Self.check(credentials)
        do {
            try await storage.createAccount(username: credentials.username, passwordHash: try await passwords.hash(credentials.password))
        } catch SyncStorageError.usernameTaken {
            throw SyncServiceError.usernameTaken
        }
    }

    public func logIn(_ credentials: SyncCredentials) async throws -> SyncSession {
        let time = now()
        if let wait = await throttle.waitBeforeTrying(credentials.username, now: time) { throw SyncServiceError.tooManyAttempts(retryAfter: wait) }
        guard let account = try await storage.account(username: credentials.username),
              try await passwords.verify(credentials.password, against: account.passwordHash)
        else {
            await throttle.recordFailure(credentials.username, now: time)
            throw SyncServiceError.wrongCredentials
        }
        await throttle.recordSuccess(credentials.username)
        let token = SessionToken.make()
        let expiresAt = time.addingTimeInterval(sessionLifetime)
        try await storage.saveSession(tokenHash: SessionToken.hash(token), accountID: account.id, expiresAt: expiresAt)
        return SyncSession(token: token, expiresAt: expiresAt)
    }

    /// The account a bearer token belongs to.
    public func account(forToken token: String?) async throws -> Int64 {
        guard let token, !token.isEmpty,
              let id = try await storage.accountID(forSession: SessionToken.hash(token), now: now())
        else { throw SyncServiceError.unauthorized }
        return id
    }

    public func push(_ request: SyncPushRequest, accountID: Int64) async throws -> SyncPushResponse {
        guard request.objectCount <= SyncProtocol.maximumObjectsPerPush else {
            throw SyncServiceError.tooLarge("a push names at most \(SyncProtocol.maximumObjectsPerPush) objects; this one names \(request.objectCount): split it")
        }
        let latestAllowed = Int64((now().timeIntervalSince1970 + Self.stampLeeway) * 1000)
        for (index, change) in request.changes.enumerated() {
            if let problem = change.problem { throw SyncServiceError.invalidChange("change \(index): \(problem)") }
            if let stamp = change.record.latestStamp, stamp.milliseconds > latestAllowed { throw SyncServiceError.stampTooFarAhead(stamp.text) }
        }
        return try await storage.push(request.changes, accountID: accountID)
    }

    /// What changed after `token`, leaving out the parts `replica` wrote (it has them already).
    public func pull(since token: String?, limit: Int?, replica: SyncReplicaID? = nil, accountID: Int64) async throws -> SyncPullResponse {
        let databaseID = try await storage.databaseID()
        var after: Int64 = 0
        if let token {
            guard let number = PullToken.sequence(of: token, databaseID: databaseID) else { throw SyncServiceError.invalidToken }
            after = number
        }
        let size = min(max(limit ?? SyncProtocol.defaultPullLimit, 1), SyncProtocol.maximumPullLimit)
        let pulled = try await storage.pull(accountID: accountID, after: after, limit: size)
        var byTable: [String: [(id: SyncID, record: SyncRecord)]] = [:]
        var order: [String] = []
        for (table, id, record) in pulled.records {
            let changed = record.changes(after: after, leavingOut: replica)
            guard changed.created != nil || changed.deleted != nil || !changed.stamps.isEmpty else { continue }
            if byTable[table] == nil { order.append(table) }
            byTable[table, default: []].append((id, changed))
        }
        let changes = order.flatMap { SyncChange.grouping(byTable[$0] ?? [], table: $0) }
        return SyncPullResponse(changes: changes, token: PullToken.make(databaseID: databaseID, sequence: pulled.last), more: pulled.more)
    }

    private static func check(_ credentials: SyncCredentials) throws {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._-@"))
        guard (1...64).contains(credentials.username.count),
              credentials.username.unicodeScalars.allSatisfy({ allowed.contains($0) })
        else { throw SyncServiceError.invalidCredentials("a username is 1–64 letters, digits, '.', '_', '-' or '@'") }
        guard (8...1024).contains(credentials.password.count) else {
            throw SyncServiceError.invalidCredentials("a password is 8–1024 characters")
        }
    }
}
