import ExampleTestSupport
import DeadlineHTTP
import Foundation
import Testing
import VesperServerKit
import VesperServerTestSupport
import VesperSync

/// The real server (`VesperServerKit`) on a free loopback port, over HTTP with URLSession, on
/// a clock the test moves by hand.
@MainActor
final class RealHarness: SyncServerHarness {
    let server: VesperTestServer
    let folder: TestFolder
    let tokenLifetime: Duration
    /// The server's clock (token expiry, sync dates); it starts at the wall clock's time.
    let serverClock: TestClock
    let transport: any VSHTTPTransport = VSNetworkTransport(deadlines: HTTPDeadlines(total: .seconds(30)))

    var url: URL { server.baseURL }

    private init(server: VesperTestServer, folder: TestFolder, tokenLifetime: Duration, serverClock: TestClock) {
        self.server = server
        self.folder = folder
        self.tokenLifetime = tokenLifetime
        self.serverClock = serverClock
    }

    /// A server on a SQLite file of its own, or on `database` (which several servers may share).
    static func start(
        tokenLifetime: Duration = .seconds(3_600), database: VesperDatabase? = nil,
        _ configure: (inout VesperServerConfiguration) -> Void = { _ in }
    ) async throws -> RealHarness {
        let folder = try TestFolder()
        var configuration = VesperServerConfiguration(
            hostname: "127.0.0.1", port: 0,
            database: database ?? .sqlite(path: folder.url.appendingPathComponent("server.sqlite").path),
            attachmentsPath: folder.url.appendingPathComponent("blobs").path, secret: "test secret for the sync client tests",
            tokenLifetime: tokenLifetime, loginAttemptsPerMinute: 1_000)
        configuration.bcryptCost = 4
        // Many servers run at once here: a PostgreSQL call waiting a while is load, not an outage.
        configuration.databaseTimeout = .seconds(60)
        let serverClock = TestClock(start: Date())
        configuration.now = { serverClock.date }
        configure(&configuration)
        try FileManager.default.createDirectory(atPath: configuration.attachmentsPath, withIntermediateDirectories: true)
        return RealHarness(
            server: try await VesperTestServer.start(configuration), folder: folder, tokenLifetime: tokenLifetime,
            serverClock: serverClock)
    }

    /// Moves the server's clock past the lifetime of every token issued so far.
    func expireTokens() async throws {
        serverClock.advance(TimeInterval(tokenLifetime.components.seconds) + 1)
    }

    func stop() async throws {
        try await server.shutdown()
    }
}

/// The two-client scenarios against the real server.
@MainActor
@Suite(.serialized) struct RealServerSyncTests {
    func run(_ body: (SyncScenarios) async throws -> Void) async throws {
        let harness = try await RealHarness.start()
        do {
            // A device clock close to the server's (no skew correction), moved by hand.
            try await body(try SyncScenarios(harness: harness, clock: TestClock(start: Date())))
        } catch {
            try? await harness.stop()
            throw error
        }
        try await harness.stop()
    }

    @Test func noteTravelsWithOrderedTagsAttachmentMetadataAndBytes() async throws {
        try await run { try await $0.noteTravelsWithOrderedTagsAttachmentMetadataAndBytes() }
    }

    @Test func caseOnlyTagRenameReachesTheOtherClient() async throws {
        try await run { try await $0.caseOnlyTagRenameReachesTheOtherClient() }
    }

    @Test func archiveOnOneAndTextEditOnTheOtherBothSurvive() async throws {
        try await run { try await $0.archiveOnOneAndTextEditOnTheOtherBothSurvive() }
    }

    @Test func deleteOnOneRemovesItOnTheOtherAndALateUploadNeverResurrectsIt() async throws {
        try await run { try await $0.deleteOnOneRemovesItOnTheOtherAndALateUploadNeverResurrectsIt() }
    }

    @Test func anExpiredTokenMakesTheClientLogInAgainOnce() async throws {
        try await run { try await $0.anExpiredTokenMakesTheClientLogInAgainOnce() }
    }

    /// The wire details the client relies on: a `Date` header on every response (skew), a sync
    /// token on notes responses, arrays from tags and deletedNotes, 401 for a bad token.
    @Test func theServerSendsWhatTheClientReliesOn() async throws {
        let harness = try await RealHarness.start()
        let caller = VSAPICaller(serverURL: harness.url, transport: harness.transport)
        #expect(await caller.createAccount(username: "dave@example.com", password: "password 123", emailUpdates: false).statusCode == 204)
        let login = await caller.login(username: "dave@example.com", password: "password 123")
        #expect(login.statusCode == 200 && login.serverDate != nil)
        let authenticator = CredentialsAuthenticator(caller: caller, username: "dave@example.com", password: "password 123")
        caller.authenticator = authenticator
        let notes = await caller.uploadNotes([], syncToken: nil)
        #expect(notes.succeeded && notes.syncToken != nil && notes.serverDate != nil)
        let tags = await caller.uploadTags([VSSyncTag(name: "Paris", nameModificationDate: Date()).json])
        #expect(tags.succeeded && (tags.json == nil || tags.json?.array != nil))
        let deleted = await caller.uploadDeletedNotes([12])
        #expect(deleted.succeeded && deleted.json?.array != nil)
        authenticator.current = "not a token"
        let unauthenticated = await VSAPICaller(serverURL: harness.url, transport: harness.transport).uploadNotes([], syncToken: nil)
        #expect(unauthenticated.statusCode == 0 && unauthenticated.error == .notLoggedIn("no account"))
        let retried = await caller.listBlobs()
        #expect(retried.succeeded && retried.json?.array != nil)
        try await harness.stop()
    }

    @Test(arguments: [11, 12] as [UInt64])
    func randomEditsConverge(seed: UInt64) async throws {
        try await run { try await $0.randomEditsConverge(seed: seed, steps: 50) }
    }
}
