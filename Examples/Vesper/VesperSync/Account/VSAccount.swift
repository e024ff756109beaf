import Foundation
import QSData
import VesperCore

/// The sync account: credentials, creating an account, logging in and out, and syncing.
///
/// It is the only object that knows the ``VSAPICaller``, and the only one that knows both the
/// API and the data model: it turns model objects into sync objects for upload and hands the
/// server's sync objects to the mergers. The login token lives in memory only; the credentials
/// and sync state live in a ``VSAccountFile`` beside the database.
///
/// ```swift
/// let account = try VSAccount(dataController: vesper)
/// try await account.login(server: serverURL, username: "alice@example.com", password: "correct horse")
/// let report = try await account.syncNow()
/// ```
@MainActor
public final class VSAccount {
    public let dataController: VSDataController
    public let file: VSAccountFile
    /// The stored credentials and sync state; nil when signed out.
    public private(set) var state: VSAccountState?
    /// Set when the server refused the stored credentials (401 on login): automatic syncs stop
    /// until a login succeeds.
    public private(set) var loginWasRejected = false
    public private(set) var isSyncing = false
    /// How many syncs ran to the end.
    public private(set) var completedSyncCount = 0
    public private(set) var lastReport: VSSyncReport?

    /// How long ``requestSync()`` waits after the last request before syncing.
    public var syncDelay: Duration
    /// How many notes, and how many bytes of them, one notes request uploads (see
    /// ``VSUploadLimits/standard``).
    public var uploadLimits = VSUploadLimits.standard
    /// The device clock. Tests replace it.
    public var deviceNow: @Sendable () -> Date = Date.init {
        didSet { installClock() }
    }

    private let transport: any VSHTTPTransport
    private let sleep: @Sendable (Duration) async throws -> Void
    private var caller: VSAPICaller?
    private var token: String?
    private var pendingSync: Task<Void, Never>?
    /// Bumped by login and logout, so that a sync running across them stores nothing.
    private var generation = 0
    private var observation: QSObservation?
    /// The clock correction, measured on every response (also before there is a stored state).
    private var skew = VSClockSkew()

    /// An account for the database of `dataController`, reading its file if there is one.
    /// - Parameters:
    ///   - file: where credentials and sync state live; default: beside the database.
    ///   - syncDelay: the coalescing delay of ``requestSync()`` (2 s).
    ///   - sleep: how the coalescing waits; tests pass a clock they control.
    public init(
        dataController: VSDataController, file: VSAccountFile? = nil, transport: any VSHTTPTransport = VSNetworkTransport(),
        syncDelay: Duration = .seconds(2), sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) throws {
        self.dataController = dataController
        self.file = file ?? VSAccountFile(databaseURL: dataController.store.url)
        self.transport = transport
        self.syncDelay = syncDelay
        self.sleep = sleep
        state = try self.file.load()
        if let state {
            caller = makeCaller(state.server)
            skew = VSClockSkew(seconds: state.clockSkew)
        }
        installClock()
    }

    public var isSignedIn: Bool { state != nil }

    // MARK: Account

    /// Creates an account on the server, then logs in to it.
    /// - Throws: ``VSAccountError`` (invalid username or password, username taken, call failed).
    public func createAccount(server: URL, username: String, password: String, emailUpdates: Bool = false) async throws {
        try Self.validate(server: server, username: username, password: password)
        let caller = makeCaller(server)
        let result = await caller.createAccount(username: username, password: password, emailUpdates: emailUpdates)
        if let error = result.error {
            let body = String(decoding: result.data ?? Data(), as: UTF8.self)
            if body.contains("VSErrorUsernameAlreadyExists") { throw VSAccountError.usernameTaken }
            if body.contains("VSErrorInvalidPassword") { throw VSAccountError.invalidPassword }
            if body.contains("VSErrorInvalidUsername") { throw VSAccountError.invalidUsername }
            throw VSAccountError.callFailed(call: "createAccount", error: error)
        }
        try await login(server: server, username: username, password: password)
    }

    /// Logs in and stores the credentials. Logging in to a different account (or for the first
    /// time) marks every local note for upload, so the account receives them all.
    /// - Throws: ``VSAccountError/wrongCredentials`` or another ``VSAccountError``.
    public func login(server: URL, username: String, password: String) async throws {
        guard !username.isEmpty, !password.isEmpty else { throw VSAccountError.wrongCredentials }
        try Self.validate(server: server)
        let caller = makeCaller(server)
        let newToken = try await obtainToken(caller: caller, username: username, password: password)
        let root = VSAPICaller.root(of: server)
        let sameAccount = state.map { $0.server == root && $0.username == username } ?? false
        var newState = sameAccount ? state ?? VSAccountState(server: root, username: username, password: password)
                                   : VSAccountState(server: root, username: username, password: password)
        newState.password = password
        newState.clockSkew = skew.seconds
        try file.save(newState)
        if !sameAccount { try dataController.markAllNotesForUpload() }
        generation += 1
        state = newState
        self.caller = caller
        token = newToken
        installClock()
    }

    /// Forgets the credentials, the token and the sync state, and cancels a scheduled sync.
    /// Local notes stay. A sync still running stores nothing when it ends.
    public func logout() throws {
        generation += 1
        pendingSync?.cancel()
        pendingSync = nil
        token = nil
        caller = nil
        state = nil
        skew = VSClockSkew()
        loginWasRejected = false
        try file.remove()
        installClock()
    }

    // MARK: Scheduling

    /// Asks for a sync: it runs ``syncDelay`` after the last request, once. Ignored when signed
    /// out or after the server refused the credentials.
    public func requestSync() {
        guard state != nil, !loginWasRejected else { return }
        pendingSync?.cancel()
        let delay = syncDelay
        let sleep = self.sleep
        pendingSync = Task { [weak self] in
            do { try await sleep(delay) } catch { return }
            guard !Task.isCancelled else { return }
            await self?.runScheduledSync()
        }
    }

    /// Requests a sync after every change the user makes (saves with source `.app`).
    public func startSyncingAfterUserChanges() {
        observation = dataController.store.observeChanges { [weak self] change in
            if change.source == .app { self?.requestSync() }
        }
    }

    /// A scheduled run has no caller to throw to: a failure that ends it is in ``lastReport``
    /// (see ``syncNow()``), as failed steps are.
    private func runScheduledSync() async {
        guard !isSyncing, state != nil else { return }
        do {
            try await syncNow()
        } catch {
            // Already in lastReport: the guard above rules out the two errors syncNow throws
            // before it runs, and it records every later one.
        }
    }

    // MARK: Sync

    /// Syncs now: tags, then deletions, then notes, then attachment bytes. A failed step is
    /// reported and the others still run.
    /// - Throws: ``VSAccountError/notSignedIn`` or ``VSAccountError/syncInProgress`` before
    ///   anything runs; or the error that kept the run's results from being saved (the local
    ///   database or the account file), which ``lastReport`` then also names, after the steps'.
    @discardableResult
    public func syncNow() async throws -> VSSyncReport {
        guard state != nil, let caller else { throw VSAccountError.notSignedIn }
        guard !isSyncing else { throw VSAccountError.syncInProgress }
        isSyncing = true
        defer { isSyncing = false }
        let generation = self.generation
        let sync = VSSyncRun(caller: caller, dataController: dataController, uploadLimits: uploadLimits, now: { [deviceNow] in deviceNow() })
        var report = VSSyncReport()

        // 1. Tags first, so that notes find their tags with the server's names.
        do { try await sync.syncTags(into: &report) } catch { report.failures.append(Self.failure("tags", error)) }
        // 2. Deletions before notes, so a note deleted elsewhere is gone before notes merge.
        do { try await sync.syncDeletedNotes(into: &report) } catch { report.failures.append(Self.failure("deletedNotes", error)) }
        // 3. Notes, with their tag names and attachment metadata.
        var notesToken: String?
        var setAside = state?.setAsideNotes ?? []
        do {
            (notesToken, setAside) = try await sync.syncNotes(
                syncToken: state?.notesSyncToken, setAside: setAside, into: &report)
        } catch {
            report.failures.append(Self.failure("notes", error))
        }
        // 4. Attachment bytes, now that the metadata is here.
        do { try await sync.syncAttachments(into: &report) } catch { report.failures.append(Self.failure("attachments", error)) }
        do {
            try await dataController.flush()
            // Signed out (or into another account) meanwhile: keep nothing from this run.
            guard generation == self.generation, var current = state else { return report }
            if let notesToken { current.notesSyncToken = notesToken }
            current.setAsideNotes = setAside.isEmpty ? nil : setAside
            current.lastSyncDate = deviceNow()
            state = current
            try file.save(current)
            report.clockSkew = current.clockSkew
        } catch {
            report.failures.append(Self.failure("saving the sync", error))
            lastReport = report
            throw error
        }
        completedSyncCount += 1
        lastReport = report
        return report
    }

    // MARK: Login tokens

    private func obtainToken(caller: VSAPICaller, username: String, password: String) async throws -> String {
        let result = await caller.login(username: username, password: password)
        if result.statusCode == 401 {
            loginWasRejected = true
            throw VSAccountError.wrongCredentials
        }
        if let error = result.error { throw VSAccountError.callFailed(call: "login", error: error) }
        guard let token = result.json?["token"]?.string, !token.isEmpty else {
            throw VSAccountError.unexpectedResponse(call: "login", reason: "no token")
        }
        loginWasRejected = false
        return token
    }

    private func makeCaller(_ server: URL) -> VSAPICaller {
        let caller = VSAPICaller(serverURL: server, transport: transport)
        caller.authenticator = self
        caller.didFinishCall = { [weak self] result in self?.observeServerDate(of: result) }
        return caller
    }

    // MARK: Clock skew

    private func observeServerDate(of result: VSAPIResult) {
        guard let serverDate = result.serverDate, skew.observe(serverDate: serverDate, deviceNow: deviceNow()) else { return }
        state?.clockSkew = skew.seconds
        installClock()
    }

    /// Makes the data controller stamp user changes with the corrected clock, in whole
    /// milliseconds (what the server keeps), so that local dates survive the round trip exactly.
    private func installClock() {
        let skew = self.skew
        let deviceNow = self.deviceNow
        dataController.now = { VSSyncDate.truncated(skew.correctedNow(deviceNow())) }
    }

    // MARK: Validation (the server's limits)

    static func validate(server: URL, username: String, password: String) throws {
        try validate(server: server)
        let length = username.utf16.count
        guard (5...150).contains(length), username.contains("@"), username.contains("."),
              !username.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) || CharacterSet.controlCharacters.contains($0) })
        else { throw VSAccountError.invalidUsername }
        guard (7...99).contains(password.utf16.count),
              !password.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        else { throw VSAccountError.invalidPassword }
    }

    static func validate(server: URL) throws {
        guard let scheme = server.scheme?.lowercased(), scheme == "http" || scheme == "https", server.host != nil else {
            throw VSAccountError.invalidServerURL(server.absoluteString)
        }
    }

    /// One line for a failed step, naming it once.
    static func failure(_ step: String, _ error: any Error) -> String {
        switch error {
        case VSAccountError.callFailed(_, let error): "\(step): \(error)."
        case VSAccountError.unexpectedResponse(_, let reason): "\(step): unexpected response (\(reason))."
        default: "\(step): \(message(error))"
        }
    }

    static func message(_ error: any Error) -> String {
        switch error {
        case let error as VSAccountError: error.description
        case let error as VSAPIError: error.description
        case let error as VesperError: error.description
        default: String(describing: error)
        }
    }
}

extension VSAccount: VSAPIAuthenticator {
    public func token() async throws -> String {
        if let token { return token }
        guard let state, let caller else { throw VSAccountError.notSignedIn }
        let fresh = try await obtainToken(caller: caller, username: state.username, password: state.password)
        token = fresh
        return fresh
    }

    public func token(replacing rejected: String) async throws -> String {
        if token == rejected { token = nil }
        return try await token()
    }
}
