import Foundation
import Logging
import QSDataSync

/// The protocol's operations, without HTTP: accounts, sessions, push and pull, with every
/// check the protocol names. The HTTP server calls it; so can a test, in process.
public struct SyncService: Sendable {
    public let storage: any SyncStorage
    /// How long a session token lasts.
    public let sessionLifetime: TimeInterval
    /// The server's clock (a test's may be set by hand).
    public let now: @Sendable () -> Date
    /// How long a replica that has not pulled still holds back collection. Deleted objects'
    /// records (and list children taken out) are removed once every replica that pulled within
    /// this window has pulled past them; a replica away longer is told to pull everything again.
    public let inactiveAfter: TimeInterval
    /// Where a failure the caller is not told of goes: a collection that failed after a pull.
    public let logger: Logger
    private let passwords: PasswordHashing
    private let throttle: LoginThrottle

    /// The default of ``inactiveAfter``: 90 days.
    public static let defaultInactiveAfter: TimeInterval = 90 * 24 * 60 * 60

    /// How far ahead of the server's clock a stamp may be: the protocol's limit, which clients
    /// also hold the stamps they pull to.
    public static let stampLeeway: TimeInterval = SyncProtocol.stampLeeway

    public init(
        storage: any SyncStorage, sessionLifetime: TimeInterval = 30 * 24 * 60 * 60, bcryptCost: UInt8 = 10,
        loginFailuresAllowed: Int = 10, inactiveAfter: TimeInterval = SyncService.defaultInactiveAfter,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "qsdata.sync-service")
    ) {
        self.storage = storage
        self.logger = logger
        self.sessionLifetime = sessionLifetime
        self.inactiveAfter = inactiveAfter
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
        guard Self.isUsername(credentials.username), let account = try await storage.account(username: credentials.username),
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
        let space = try await space(group: request.group, accountID: accountID)
        guard request.objectCount <= SyncProtocol.maximumObjectsPerPush else {
            throw SyncServiceError.tooLarge("a push names at most \(SyncProtocol.maximumObjectsPerPush) objects; this one names \(request.objectCount): split it")
        }
        let latestAllowed = Int64((now().timeIntervalSince1970 + Self.stampLeeway) * 1000)
        for (index, change) in request.changes.enumerated() {
            if let problem = change.problem { throw SyncServiceError.invalidChange("change \(index): \(problem)") }
            if let stamp = change.record.latestStamp, stamp.milliseconds > latestAllowed { throw SyncServiceError.stampTooFarAhead(stamp.text) }
        }
        if let missing = try await missingBlobs(in: request.changes, accountID: space).first { throw SyncServiceError.blobMissing(missing) }
        // A push without a token (from a client older than collection) can't be checked.
        var base = Int64.max
        if let since = request.since {
            // A token from another database (the server's was replaced) can't vouch for anything.
            guard let token = PullToken(text: since, databaseID: try await storage.databaseID()), token.group == request.group else {
                throw SyncServiceError.resyncRequired
            }
            base = token.horizon
        }
        do {
            return try await storage.push(request.changes, accountID: space, base: base, replica: request.replica, number: request.number)
        } catch SyncStorageError.resyncRequired {
            throw SyncServiceError.resyncRequired
        }
    }

    /// What changed since the pull `token` continues began (see ``PullToken``), leaving out the
    /// parts `replica` wrote (it has them already); without a token, and in every page after of
    /// a pull that began without one, everything the server holds, the replica's own writes
    /// included. Of the group's objects when `group` names one the account is a member of; of
    /// the account's own without. A first-version token is refused.
    public func pull(
        since token: String?, limit: Int?, replica: SyncReplicaID? = nil, group: String? = nil, accountID: Int64
    ) async throws -> SyncPullResponse {
        let space = try await space(group: group, accountID: accountID)
        let databaseID = try await storage.databaseID()
        var start = PullToken(sequence: 0, collected: 0, group: group)
        if let token {
            // A first-version token may stand in the middle of a pull that skipped creations (see
            // `PullToken`): the replica pulls everything again instead.
            guard let read = PullToken(text: token, databaseID: databaseID), read.group == group, !read.isFirstVersion else {
                throw SyncServiceError.invalidToken
            }
            start = read
        }
        let after = start.sequence
        let size = min(max(limit ?? SyncProtocol.defaultPullLimit, 1), SyncProtocol.maximumPullLimit)
        let time = now()
        var lastPush: Int64?
        if let replica { lastPush = try await storage.recordPull(accountID: space, replica: replica, position: after, at: time) }
        let pulled = try await storage.pull(accountID: space, after: after, limit: size)
        // A collection that went past the token since it was made may have removed a deletion
        // the replica needs. (Without a token, the pull is of everything the server holds.)
        if token != nil, start.horizon < pulled.collectedThrough { throw SyncServiceError.resyncRequired }
        // A pull that began without a token (every page of it) brings the replica's own writes too.
        let leftOut = token == nil || start.continuesAPullWithoutToken ? nil : replica
        var byTable: [String: [(id: SyncID, record: SyncRecord)]] = [:]
        var order: [String] = []
        for (table, id, record) in pulled.records {
            let changed = record.changes(after: start.since, leavingOut: leftOut)
            guard changed.created != nil || changed.deleted != nil || !changed.stamps.isEmpty else { continue }
            if byTable[table] == nil { order.append(table) }
            byTable[table, default: []].append((id, changed))
        }
        let changes = order.flatMap { SyncChange.grouping(byTable[$0] ?? [], table: $0) }
        if !pulled.more { await collect(space, activeSince: time.addingTimeInterval(-inactiveAfter)) }
        // Until the last page, the pages count changes from where the pull began (see `PullToken`).
        let next = PullToken(
            sequence: pulled.last, collected: pulled.collectedThrough, since: pulled.more ? start.since : pulled.last, group: group,
            continuesAPullWithoutToken: pulled.more && (token == nil || start.continuesAPullWithoutToken))
        return SyncPullResponse(changes: changes, token: next.text(databaseID: databaseID), more: pulled.more, lastPush: lastPush)
    }

    /// Collects what every active replica has pulled past (see ``SyncStorage/collect(accountID:activeSince:)``),
    /// as the last page of a pull does on its way. Collection is upkeep, not part of the answer: when
    /// it fails, the pull still answers and the next pull's collection tries again, since nothing it
    /// would remove has gone. A database that is slow or gone for a moment is a warning (the call
    /// that gave up logged the outage already); any other failure is an error, since collection
    /// that never succeeds lets deleted objects' records pile up; a pull cancelled (the server
    /// shutting down) is not a failure of collection.
    private func collect(_ space: Int64, activeSince: Date) async {
        do {
            _ = try await storage.collect(accountID: space, activeSince: activeSince)
        } catch is CancellationError {
            logger.debug("collection after a pull was cancelled", metadata: ["account": "\(space)"])
        } catch {
            let isOutage = (error as? SyncServiceError)?.status == 503
            logger.log(
                level: isOutage ? .warning : .error, "collection after a pull failed; the next pull tries again",
                metadata: ["account": "\(space)", "error": "\(error)"])
        }
    }

    /// Whether `text` can be a person's username: 1–64 letters, digits, '.', '_', '-' or '@'.
    /// (A group's space has a ':' in its name, so no one can take it or log in to it.)
    static func isUsername(_ text: String) -> Bool {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._-@"))
        return (1...64).contains(text.count) && text.unicodeScalars.allSatisfy { allowed.contains($0) }
    }

    private static func check(_ credentials: SyncCredentials) throws {
        guard isUsername(credentials.username)
        else { throw SyncServiceError.invalidCredentials("a username is 1–64 letters, digits, '.', '_', '-' or '@'") }
        guard (8...1024).contains(credentials.password.count) else {
            throw SyncServiceError.invalidCredentials("a password is 8–1024 characters")
        }
    }
}
