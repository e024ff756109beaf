import DeadlineHTTP
import Foundation
import QSDataSync

/// QSData's sync protocol over the examples' own HTTP client (AsyncHTTPClient with deadlines),
/// plugged into `QSSync` in place of its URLSession transport: account creation and login,
/// push and pull.
public struct RSSSyncTransport: QSSyncTransport {
    public let server: URL
    /// The session token; nil before logging in.
    public let token: String?
    private let client: DeadlineHTTPClient

    public init(server: URL, token: String?, deadlines: HTTPDeadlines = HTTPDeadlines()) {
        self.server = server
        self.token = token
        client = DeadlineHTTPClient(deadlines: deadlines, maximumBytes: 256 * 1024 * 1024, followsRedirects: false)
    }

    public func createAccount(username: String, password: String) async throws {
        _ = try await send("POST", "accounts", body: SyncCredentials(username: username, password: password))
    }

    public func logIn(username: String, password: String) async throws -> SyncSession {
        try decode(SyncSession.self, try await send("POST", "sessions", body: SyncCredentials(username: username, password: password)))
    }

    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try decode(SyncPushResponse.self, try await send("POST", "push", body: request))
    }

    public func pull(since token: String?, limit: Int, replica: SyncReplicaID? = nil) async throws -> SyncPullResponse {
        var query = [URLQueryItem(name: "limit", value: String(limit))]
        if let token { query.append(URLQueryItem(name: "since", value: token)) }
        if let replica { query.append(URLQueryItem(name: "replica", value: replica.text)) }
        return try decode(SyncPullResponse.self, try await send("GET", "pull", query: query))
    }

    private func send(_ method: String, _ endpoint: String, query: [URLQueryItem] = [], body: (some Encodable)? = String?.none) async throws -> Data {
        var components = URLComponents(url: server.appendingPathComponent("v\(SyncProtocol.version)").appendingPathComponent(endpoint), resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query }
        guard let url = components?.url else { throw RSSError.syncFailed("can't make a URL from \(server)") }
        var headers = [("Accept", "application/json")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        var data: Data?
        if let body {
            data = try SyncProtocol.makeEncoder().encode(body)
            headers.append(("Content-Type", "application/json"))
        }
        let response: DeadlineHTTPResponse
        do {
            response = try await client.send(DeadlineHTTPRequest(method: method, url: url, headers: headers, body: data))
        } catch {
            throw QSSyncError.unreachable("\(error)")
        }
        guard (200..<300).contains(response.statusCode) else {
            let detail = (try? SyncProtocol.makeDecoder().decode(SyncErrorResponse.self, from: response.body))?.error
            throw QSSyncError.server(
                status: response.statusCode, code: detail?.code ?? "unknown",
                message: detail?.message ?? String(decoding: response.body.prefix(200), as: UTF8.self))
        }
        return response.body
    }

    private func decode<Body: Decodable>(_ type: Body.Type, _ data: Data) throws -> Body {
        do {
            return try SyncProtocol.makeDecoder().decode(type, from: data)
        } catch {
            throw QSSyncError.unreadableResponse("\(error)")
        }
    }
}
