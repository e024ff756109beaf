import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The sync protocol over HTTP with URLSession: account creation, login, push and pull, blobs and groups.
///
/// ```swift
/// let server = URL(string: "https://sync.example.com")!
/// let session = try await QSSyncHTTPTransport.logIn(server: server, username: "ann", password: password)
/// let sync = try await QSSync.attach(to: store, transport: QSSyncHTTPTransport(server: server, token: session.token))
/// ```
public struct QSSyncHTTPTransport: QSSyncTransport {
    public let server: URL
    public let token: String
    private let session: URLSession

    public init(server: URL, token: String, session: URLSession = .shared) {
        self.server = server
        self.token = token
        self.session = session
    }

    /// Creates an account on `server`.
    public static func createAccount(server: URL, username: String, password: String, session: URLSession = .shared) async throws {
        let body = try SyncProtocol.makeEncoder().encode(SyncCredentials(username: username, password: password))
        _ = try await send(post(server, "accounts", body: body, token: nil), session: session)
    }

    /// Logs in: the session's token is what a transport carries.
    public static func logIn(server: URL, username: String, password: String, session: URLSession = .shared) async throws -> SyncSession {
        let body = try SyncProtocol.makeEncoder().encode(SyncCredentials(username: username, password: password))
        return try decode(SyncSession.self, from: try await send(post(server, "sessions", body: body, token: nil), session: session))
    }

    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let body = try SyncProtocol.makeEncoder().encode(request)
        return try Self.decode(SyncPushResponse.self, from: try await Self.send(Self.post(server, "push", body: body, token: token), session: session))
    }

    public func pull(since token: String?, limit: Int, replica: SyncReplicaID? = nil) async throws -> SyncPullResponse {
        try await pull(since: token, limit: limit, replica: replica, group: nil)
    }

    public func pull(since token: String?, limit: Int, replica: SyncReplicaID?, group: String?) async throws -> SyncPullResponse {
        let query = [URLQueryItem(name: "limit", value: String(limit))]
            + (token.map { [URLQueryItem(name: "since", value: $0)] } ?? [])
            + (replica.map { [URLQueryItem(name: "replica", value: $0.text)] } ?? [])
            + (group.map { [URLQueryItem(name: "group", value: $0)] } ?? [])
        return try Self.decode(SyncPullResponse.self, from: try await Self.send(try authorised(Self.endpoint(server, "pull"), query), session: session))
    }

    public func blobStatus(_ blob: SyncBlobReference) async throws -> SyncBlobStatus {
        try await blobStatus(blob, group: nil)
    }

    public func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data) async throws -> SyncBlobStatus {
        try await uploadBlobPart(blob, index: index, bytes: bytes, group: nil)
    }

    public func downloadBlob(_ blob: SyncBlobReference) async throws -> Data {
        try await downloadBlob(blob, group: nil)
    }

    public func blobStatus(_ blob: SyncBlobReference, group: String?) async throws -> SyncBlobStatus {
        try Self.decode(SyncBlobStatus.self, from: try await Self.send(try blobRequest(blob, "parts", group: group), session: session))
    }

    public func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data, group: String?) async throws -> SyncBlobStatus {
        var request = try blobRequest(blob, "parts/\(index)", group: group)
        request.httpMethod = "PUT"
        request.httpBody = bytes
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        return try Self.decode(SyncBlobStatus.self, from: try await Self.send(request, session: session))
    }

    public func downloadBlob(_ blob: SyncBlobReference, group: String?) async throws -> Data {
        try await Self.send(try blobRequest(blob, nil, group: group), session: session)
    }

    public func groups() async throws -> [SyncGroup] {
        try Self.decode(SyncGroupList.self, from: try await Self.send(try authorised(Self.endpoint(server, "groups")), session: session)).groups
    }

    public func createGroup(named name: String) async throws -> SyncGroup {
        let body = try SyncProtocol.makeEncoder().encode(SyncGroupRequest(name: name))
        return try Self.decode(SyncGroup.self, from: try await Self.send(Self.post(server, "groups", body: body, token: token), session: session))
    }

    public func addMember(_ username: String, to group: String) async throws -> SyncGroup {
        try await member(username, of: group, method: "PUT")
    }

    public func removeMember(_ username: String, from group: String) async throws -> SyncGroup {
        try await member(username, of: group, method: "DELETE")
    }

    private func member(_ username: String, of group: String, method: String) async throws -> SyncGroup {
        var request = try authorised(Self.endpoint(server, "groups").appendingPathComponent(group).appendingPathComponent("members").appendingPathComponent(username))
        request.httpMethod = method
        return try Self.decode(SyncGroup.self, from: try await Self.send(request, session: session))
    }

    /// `/v1/blobs/SHA256[/rest]?size=N[&group=ID]`, authorised.
    private func blobRequest(_ blob: SyncBlobReference, _ rest: String?, group: String?) throws -> URLRequest {
        var url = Self.endpoint(server, "blobs").appendingPathComponent(blob.sha256)
        if let rest { url = url.appendingPathComponent(rest) }
        return try authorised(url, [URLQueryItem(name: "size", value: String(blob.size))] + (group.map { [URLQueryItem(name: "group", value: $0)] } ?? []))
    }

    /// A request for `url` with `query`, carrying the session's token.
    private func authorised(_ url: URL, _ query: [URLQueryItem] = []) throws -> URLRequest {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query }
        guard let withQuery = components?.url else { throw QSSyncError.unreachable("can't make a URL from \(url)") }
        var request = URLRequest(url: withQuery)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    private static func endpoint(_ server: URL, _ name: String) -> URL {
        server.appendingPathComponent(String(SyncProtocol.pathPrefix.dropFirst())).appendingPathComponent(name)
    }

    private static func post(_ server: URL, _ name: String, body: Data, token: String?) -> URLRequest {
        var request = URLRequest(url: endpoint(server, name))
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        return request
    }

    private static func send(_ request: URLRequest, session: URLSession) async throws -> Data {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw QSSyncError.unreachable(error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse else { throw QSSyncError.unreadableResponse("not an HTTP response") }
        guard (200..<300).contains(http.statusCode) else {
            let detail = (try? SyncProtocol.makeDecoder().decode(SyncErrorResponse.self, from: data))?.error
            throw QSSyncError.server(status: http.statusCode, code: detail?.code ?? "unknown", message: detail?.message ?? String(decoding: data.prefix(200), as: UTF8.self))
        }
        return data
    }

    private static func decode<Body: Decodable>(_ type: Body.Type, from data: Data) throws -> Body {
        do {
            return try SyncProtocol.makeDecoder().decode(type, from: data)
        } catch {
            throw QSSyncError.unreadableResponse("\(error)")
        }
    }
}
