import Foundation
import Testing
import VesperCore
@testable import VesperSync

/// A server for the end-to-end tests: the in-memory fake, or the real `VesperServerKit`
/// server on a free loopback port (see RealServerTests).
@MainActor
protocol SyncServerHarness {
    var transport: any VSHTTPTransport { get }
    var url: URL { get }
    /// Makes every issued token invalid (forgets them, or moves the server's clock past their expiry).
    func expireTokens() async throws
    func stop() async throws
}

struct FakeHarness: SyncServerHarness {
    let server: FakeVesperServer
    var transport: any VSHTTPTransport { server }
    var url: URL { FakeVesperServer.root }
    func expireTokens() async throws { server.expireTokens() }
    func stop() async throws {}
}

/// Reads what the server holds for a user: every note, by a notes call without a sync token.
@MainActor
func serverNoteSet(_ harness: any SyncServerHarness, username: String, password: String) async throws -> [Int64: NoteSummary] {
    let caller = VSAPICaller(serverURL: harness.url, transport: harness.transport)
    let authenticator = CredentialsAuthenticator(caller: caller, username: username, password: password)
    caller.authenticator = authenticator
    let result = await caller.uploadNotes([], syncToken: nil)
    let elements = try VSSyncRun.array(of: result, call: "notes")
    let notes = try elements.map(VSSyncNote.init(json:))
    return Dictionary(uniqueKeysWithValues: notes.map { ($0.noteID, NoteSummary($0)) })
}

/// Logs in with given credentials.
@MainActor
final class CredentialsAuthenticator: VSAPIAuthenticator {
    let caller: VSAPICaller
    let username: String
    let password: String
    var current: String?

    init(caller: VSAPICaller, username: String, password: String) {
        self.caller = caller
        self.username = username
        self.password = password
    }

    func token() async throws -> String {
        if let current { return current }
        let result = await caller.login(username: username, password: password)
        guard let token = result.json?["token"]?.string else { throw VSAccountError.wrongCredentials }
        current = token
        return token
    }

    func token(replacing rejected: String) async throws -> String {
        if current == rejected { current = nil }
        return try await token()
    }
}
