import Foundation
import QSDataSync
import SyncServerKit
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server over HTTP, through QSDataSync's URLSession transport: accounts, sessions, and
/// every error answer the protocol names.
@Suite(.serialized)
struct HTTPTests {
    @Test func accountsSessionsPushAndPull() async throws {
        let server = try await TestServer.start()
        do {
            let url = server.baseURL
            try await QSSyncHTTPTransport.createAccount(server: url, username: "ann", password: "correct horse")
            await #expect(throws: QSSyncError.server(status: 409, code: "usernameTaken", message: "the username is taken")) {
                try await QSSyncHTTPTransport.createAccount(server: url, username: "ann", password: "another one")
            }
            await #expect(throws: QSSyncError.self) {
                try await QSSyncHTTPTransport.createAccount(server: url, username: "bad name!", password: "correct horse")
            }
            await #expect(throws: QSSyncError.server(status: 401, code: "wrongCredentials", message: "unknown username or wrong password")) {
                _ = try await QSSyncHTTPTransport.logIn(server: url, username: "ann", password: "wrong password")
            }
            let session = try await QSSyncHTTPTransport.logIn(server: url, username: "ann", password: "correct horse")
            let transport = QSSyncHTTPTransport(server: url, token: session.token)
            let stamp = Stamps.at(0)
            let change = SyncChange(table: "notes", ids: [.integer(1)], created: stamp, values: ["title": .text("hi")], stamps: ["title": stamp])
            #expect(try await transport.push(SyncPushRequest(replica: Stamps.a, changes: [change])) == SyncPushResponse(received: 1, applied: 1))
            let pulled = try await transport.pull(since: nil, limit: 100)
            #expect(pulled.changes.map(\.record) == [change.record] && !pulled.more)
            let again = try await transport.pull(since: pulled.token, limit: 100)
            #expect(again.changes.isEmpty)
            await #expect(throws: QSSyncError.server(status: 401, code: "unauthorized", message: "no valid session token: log in for one")) {
                _ = try await QSSyncHTTPTransport(server: url, token: "forged").pull(since: nil, limit: 10)
            }
            await #expect(throws: QSSyncError.self) { _ = try await transport.pull(since: "garbage", limit: 10) }
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    @Test func malformedBodiesAndRepeatedFailedLoginsGetTheirErrors() async throws {
        let server = try await TestServer.start()
        do {
            let url = server.baseURL
            try await QSSyncHTTPTransport.createAccount(server: url, username: "ann", password: "correct horse")
            let token = try await QSSyncHTTPTransport.logIn(server: url, username: "ann", password: "correct horse").token
            var request = URLRequest(url: url.appendingPathComponent("v1/push"))
            request.httpMethod = "POST"
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            request.httpBody = Data(#"{"replica": "000000000000000a", "changes": [{"table": "notes"}]}"#.utf8)
            let (data, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 400)
            let body = try SyncProtocol.makeDecoder().decode(SyncErrorResponse.self, from: data)
            #expect(body.error.code == "malformedBody" && body.error.message.contains("changes.[0]"))

            for _ in 0..<10 {
                _ = try? await QSSyncHTTPTransport.logIn(server: url, username: "ann", password: "guessing wrong")
            }
            var login = URLRequest(url: url.appendingPathComponent("v1/sessions"))
            login.httpMethod = "POST"
            login.httpBody = try SyncProtocol.makeEncoder().encode(SyncCredentials(username: "ann", password: "correct horse"))
            let (_, throttled) = try await URLSession.shared.data(for: login)
            let http = try #require(throttled as? HTTPURLResponse)
            #expect(http.statusCode == 429)
            #expect(Int(http.value(forHTTPHeaderField: "Retry-After") ?? "") ?? 0 > 0)
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }
}
