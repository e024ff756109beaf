import ExampleTestSupport
import Foundation
import Synchronization
import Testing
import VesperCore
@testable import VesperSync

/// The account against a fake transport: login tokens and the 401 retry, coalescing, skew,
/// the credentials file.
@MainActor
@Suite struct AccountTests {
    let folder: TestFolder
    let clock = TestClock()
    static let server = URL(string: "http://fake.invalid/api/")!

    init() throws {
        folder = try TestFolder()
    }

    func client(_ transport: any VSHTTPTransport, name: String = "phone") async throws -> TestClient {
        try await TestClient.open(name, in: folder, transport: transport, clock: clock)
    }

    @Test func a401MakesTheCallLogInAgainOnceAndRetryTheIdenticalRequest() async throws {
        let server = FakeVesperServer()
        let phone = try await client(server)
        try await phone.account.createAccount(server: Self.server, username: "alice@example.com", password: "correct horse")
        server.expireTokens()
        let report = try await phone.account.syncNow()
        #expect(report.failures == [])
        let tagCalls = server.requests(to: "/api/tags")
        #expect(tagCalls.count == 2)
        #expect(tagCalls[0].body == tagCalls[1].body)
        #expect(tagCalls[0].headers["x-zumo-auth"] == "token-1" && tagCalls[1].headers["x-zumo-auth"] == "token-2")
        #expect(server.requests(to: "/api/login").count == 2)
        // Later calls use the new token without logging in again.
        #expect(server.requests(to: "/api/notes").map { $0.headers["x-zumo-auth"] } == ["token-2"])
        try await phone.close()
    }

    @Test func aSecond401IsDeliveredAsTheFailureAfterOneRelogin() async throws {
        let logins = Mutex(0)
        let transport = ScriptedTransport { request in
            if request.url.path == "/api/login" {
                let count = logins.withLock { $0 += 1; return $0 }
                return .json(#"{"token":"t\#(count)"}"#)
            }
            return VSHTTPResponse(statusCode: 401)
        }
        let caller = VSAPICaller(serverURL: Self.server, transport: transport)
        let authenticator = FixedAuthenticator(caller: caller)
        caller.authenticator = authenticator
        let result = await caller.uploadTags([])
        #expect(result.statusCode == 401 && !result.succeeded)
        #expect(transport.requests.map(\.url.path) == ["/api/login", "/api/tags", "/api/login", "/api/tags"])
        #expect(transport.requests[1].headers["x-zumo-auth"] == "t1" && transport.requests[3].headers["x-zumo-auth"] == "t2")
    }

    @Test func withoutATokenNothingIsSent() async throws {
        let transport = ScriptedTransport { _ in VSHTTPResponse(statusCode: 500) }
        let caller = VSAPICaller(serverURL: Self.server, transport: transport)
        let authenticator = FixedAuthenticator(caller: caller)
        caller.authenticator = authenticator
        let result = await caller.uploadNotes([], syncToken: nil)
        #expect(!result.succeeded && result.response == nil)
        #expect(transport.requests.map(\.url.path) == ["/api/login"])
    }

    @Test func loginRefusedWith401StopsAutomaticSyncs() async throws {
        let server = FakeVesperServer()
        let phone = try await client(server)
        try await phone.account.createAccount(server: Self.server, username: "alice@example.com", password: "correct horse")
        server.state.withLock { $0.passwords["alice@example.com"] = "changed elsewhere" }
        server.expireTokens()
        let report = try await phone.account.syncNow()
        #expect(report.failures.first == "tags: not logged in (The server refused the username and password).")
        #expect(phone.account.loginWasRejected)
        try await phone.close()
    }

    @Test func syncRequestsCoalesceIntoOneRunTwoSecondsAfterTheLast() async throws {
        let server = FakeVesperServer()
        let sleeper = ManualSleeper()
        let vesper = try await VSDataController.open(at: try folder.databaseURL("coalesce"))
        let account = try VSAccount(dataController: vesper, transport: server, sleep: sleeper.sleep)
        try await account.createAccount(server: Self.server, username: "alice@example.com", password: "correct horse")
        account.startSyncingAfterUserChanges()

        let note = try await vesper.userDidCreateNote(text: "One")     // a user change requests a sync
        try vesper.userDidUpdateText("Two", of: note)
        account.requestSync()
        try await vesper.flush()
        await sleeper.waitForSleepers(atLeast: 3)
        #expect(sleeper.durations.allSatisfy { $0 == .seconds(2) })
        try await waitUntil {
            sleeper.wakeAll()
            return account.completedSyncCount == 1 && !account.isSyncing
        }
        // Only the last request ran: the earlier ones were cancelled before they were woken, and
        // no further sync is waiting. One notes call, carrying the note's latest text.
        #expect(sleeper.durations.count == 3)
        #expect(sleeper.waiting == 0)
        #expect(account.completedSyncCount == 1)
        let notesCalls = server.requests(to: "/api/notes")
        #expect(notesCalls.count == 1)
        #expect(server.notes(of: "alice@example.com")[note.uniqueID]?["text"] == .string("Two"))
        try await vesper.close()
    }

    @Test func aScheduledSyncThatCannotSaveReportsTheFailure() async throws {
        let server = FakeVesperServer()
        let sleeper = ManualSleeper()
        let vesper = try await VSDataController.open(at: try folder.databaseURL("unsaved"))
        let accountFolder = try folder.subfolder("account")
        let file = VSAccountFile(url: accountFolder.appendingPathComponent("account.json"))
        let account = try VSAccount(dataController: vesper, file: file, transport: server, sleep: sleeper.sleep)
        try await account.createAccount(server: Self.server, username: "alice@example.com", password: "correct horse")
        _ = try await vesper.userDidCreateNote(text: "Synced, but the account file can't record it")
        try FileManager.default.removeItem(at: accountFolder)

        account.requestSync()
        await sleeper.waitForSleepers(atLeast: 1)
        sleeper.wakeAll()
        try await waitUntil { account.lastReport != nil && !account.isSyncing }
        let report = try #require(account.lastReport)
        #expect(report.notesUploaded.count == 1)
        #expect(report.failures.count == 1)
        #expect(report.failures.first?.hasPrefix("saving the sync: Can't write the account file \(file.url.path): ") == true)
        #expect(account.completedSyncCount == 0)
        try await vesper.close()
    }

    @Test func aServerClockMoreThanTwoMinutesAheadCorrectsUserDates() async throws {
        // The server's Date header and the device both follow the test clock, an hour apart.
        let server = FakeVesperServer(clock: clock)
        let phone = try await client(server)
        server.setClockOffset(3_600)
        try await phone.account.createAccount(server: Self.server, username: "alice@example.com", password: "correct horse")
        #expect(phone.account.state?.clockSkew == 3_600)
        let note = try await phone.vesper.userDidCreateNote(text: "Stamped")
        #expect(note.textModificationDate == clock.date.addingTimeInterval(3_600))
        try await phone.account.syncNow()
        #expect(try #require(phone.account.state?.clockSkew) != 0)
        try await phone.close()
    }

    @Test func smallSkewIsIgnored() {
        var skew = VSClockSkew()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let small = skew.observe(serverDate: now + 119, deviceNow: now)
        #expect(!small && skew.seconds == 0)
        let large = skew.observe(serverDate: now - 121, deviceNow: now)
        #expect(large && skew.correctedNow(now) == now - 121)
        let implausible = skew.observe(serverDate: Date(timeIntervalSince1970: 0), deviceNow: now)
        #expect(!implausible && skew.seconds == -121)
    }

    @Test func credentialsLiveInAnOwnerOnlyFileBesideTheDatabaseAndLogoutRemovesIt() async throws {
        let server = FakeVesperServer()
        let phone = try await client(server)
        await #expect(throws: VSAccountError.wrongCredentials) {
            try await phone.account.login(server: Self.server, username: "nobody@example.com", password: "whatever1")
        }
        try await phone.account.createAccount(server: Self.server, username: "alice@example.com", password: "correct horse")
        let file = phone.account.file.url
        #expect(file.deletingLastPathComponent() == phone.vesper.store.url.deletingLastPathComponent())
        #expect(file.lastPathComponent == "vesper-account.json")
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let stored = try #require(try VSAccountFile(url: file).load())
        #expect(stored.username == "alice@example.com" && stored.password == "correct horse")
        #expect(stored.server == URL(string: "http://fake.invalid/")!)
        try phone.account.logout()
        #expect(!FileManager.default.fileExists(atPath: file.path))
        await #expect(throws: VSAccountError.notSignedIn) { try await phone.account.syncNow() }
        try await phone.close()
    }

    @Test func createAccountReportsATakenUsernameAndRefusesBadInputLocally() async throws {
        let server = FakeVesperServer()
        let phone = try await client(server)
        try await phone.account.createAccount(server: Self.server, username: "alice@example.com", password: "correct horse")
        await #expect(throws: VSAccountError.usernameTaken) {
            try await phone.account.createAccount(server: Self.server, username: "ALICE@example.com", password: "correct horse")
        }
        await #expect(throws: VSAccountError.invalidUsername) {
            try await phone.account.createAccount(server: Self.server, username: "alice", password: "correct horse")
        }
        await #expect(throws: VSAccountError.invalidPassword) {
            try await phone.account.createAccount(server: Self.server, username: "bob@example.com", password: "short")
        }
        #expect(server.requests(to: "/api/createAccount").count == 2)
        try await phone.close()
    }

    @Test func largeUploadsAreBatchedAndUnmarkedOnlyWhenTheServerHasThem() async throws {
        let server = FakeVesperServer()
        let phone = try await client(server)
        try await phone.account.createAccount(server: Self.server, username: "alice@example.com", password: "correct horse")
        phone.account.uploadLimits = VSUploadLimits(notes: 2, bytes: 1 << 20)
        try await phone.vesper.userDidCreateNotes((1...5).map { (text: "Note \($0)", tagNames: ["Batch"]) })
        let report = try await phone.account.syncNow()
        #expect(report.notesUploaded.count == 5)
        #expect(server.requests(to: "/api/notes").count == 3)
        #expect(try await phone.vesper.countOfNotesToUpload() == 0)
        #expect(server.notes(of: "alice@example.com").count == 5)
        try await phone.close()
    }
}

/// An authenticator that logs in with fixed credentials through the caller.
@MainActor
final class FixedAuthenticator: VSAPIAuthenticator {
    let caller: VSAPICaller
    var current: String?

    init(caller: VSAPICaller) { self.caller = caller }

    func token() async throws -> String {
        if let current { return current }
        let result = await caller.login(username: "alice@example.com", password: "correct horse")
        guard let token = result.json?["token"]?.string else { throw VSAccountError.wrongCredentials }
        current = token
        return token
    }

    func token(replacing rejected: String) async throws -> String {
        if current == rejected { current = nil }
        return try await token()
    }
}

/// A sleep the test ends by hand; it records what was asked for.
final class ManualSleeper: Sendable {
    private let state = Mutex<(durations: [Duration], waiters: [CheckedContinuation<Void, Never>])>(([], []))

    var durations: [Duration] { state.withLock { $0.durations } }

    var sleep: @Sendable (Duration) async throws -> Void {
        { duration in
            await withCheckedContinuation { continuation in
                self.state.withLock { $0.durations.append(duration); $0.waiters.append(continuation) }
            }
        }
    }

    /// How many sleeps have not been woken yet.
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// Waits until at least `count` sleeps are waiting; records an issue after `timeout`.
    func waitForSleepers(atLeast count: Int, timeout: Duration = .seconds(60)) async {
        let deadline = ContinuousClock.now + timeout
        while waiting < count {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting for \(count) sleepers")
                return
            }
            await Task.yield()
        }
    }

    func wakeAll() {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Waits until `condition` holds. The timeout only bounds a hang: every test in a full run shares
/// one main actor, so on a loaded machine the work awaited here can wait seconds for its turn
/// (10 s was not always enough at a load average of 12 on 2 cores).
@MainActor
func waitUntil(timeout: Duration = .seconds(60), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out waiting")
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
