import DeadlineHTTP
import Foundation
import QSData
import QSDataSync

/// Sync of subscriptions, articles and their read and starred state through a QSData sync
/// server. The data model marks Feed, Article and Author `synced` (a feed's HTTP cache headers
/// and an article's refresh bookkeeping stay local); everything else is QSSync's.
///
/// The rule when devices disagree is the protocol's: each property keeps its latest edit, and
/// a delete wins over any edit. Unsubscribing on one device while another stars an article of
/// that feed leaves the feed and all its articles deleted on both.
extension RSSDataController {
    /// Creates an account on `server`, logs in, and keeps the login beside the database.
    public func createSyncAccount(server: URL, username: String, password: String, deadlines: HTTPDeadlines = HTTPDeadlines()) async throws -> RSSSyncAccount {
        try await RSSSyncTransport(server: server, token: nil, deadlines: deadlines).createAccount(username: username, password: password)
        return try await logInToSync(server: server, username: username, password: password, deadlines: deadlines)
    }

    /// Logs in to an account on `server` and keeps the login beside the database; from now on
    /// every change to a feed or article is queued for the next sync.
    public func logInToSync(server: URL, username: String, password: String, deadlines: HTTPDeadlines = HTTPDeadlines()) async throws -> RSSSyncAccount {
        let session = try await RSSSyncTransport(server: server, token: nil, deadlines: deadlines).logIn(username: username, password: password)
        let account = RSSSyncAccount(server: server, username: username, token: session.token, expiresAt: session.expiresAt)
        try account.save(forDatabase: databaseURL)
        try await attachSync(account, deadlines: deadlines)
        return account
    }

    /// Forgets the login. Changes made meanwhile are still queued and sent after the next login.
    public func logOutOfSync() async throws {
        try await sync?.detach()
        sync = nil
        try RSSSyncAccount.remove(forDatabase: databaseURL)
    }

    /// The account this database syncs with, if logged in.
    public func syncAccount() throws -> RSSSyncAccount? {
        try RSSSyncAccount.load(forDatabase: databaseURL)
    }

    /// Pushes this database's changes and pulls the other devices'.
    public func syncNow(deadlines: HTTPDeadlines = HTTPDeadlines()) async throws -> QSSyncReport {
        guard let account = try syncAccount() else {
            throw RSSError.syncFailed("not logged in: run `rss account login` (or `rss account create`) first")
        }
        try await attachSync(account, deadlines: deadlines)
        guard let sync else { throw RSSError.syncFailed("sync could not be started") }
        let report = try await sync.sync()
        // Read state merged from other devices changes the unread counts kept in memory.
        try await reloadUnreadCounts()
        return report
    }

    /// How many changes wait to be sent (zero before the first login: everything here is sent then).
    public func waitingSyncChanges() async throws -> Int {
        try await sync?.waitingCount() ?? 0
    }

    /// Attaches sync with the account's server and token (again, with new deadlines).
    func attachSync(_ account: RSSSyncAccount, deadlines: HTTPDeadlines = HTTPDeadlines()) async throws {
        try await sync?.detach()
        sync = try await QSSync.attach(to: store, transport: RSSSyncTransport(server: account.server, token: account.token, deadlines: deadlines))
    }
}
