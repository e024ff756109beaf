import ExampleTestSupport
import Foundation
import Testing
import VesperServerTestSupport

@testable import VesperServerKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A live server on a free port over a fresh store (SQLite file or PostgreSQL schema), and a
/// client for it.
final class TestEnvironment: Sendable {
    let server: VesperTestServer
    let client: TestClient
    let store: TestStore
    let configuration: VesperServerConfiguration
    /// What the server logged (info and above).
    let logs: LogRecorder

    var engine: Engine { store.engine }

    static func makeConfiguration(store: TestStore) -> VesperServerConfiguration {
        var configuration = VesperServerConfiguration(
            database: store.database, attachmentsPath: store.folder.appendingPathComponent("attachments").path,
            secret: "test secret")
        configuration.bcryptCost = 4
        // The test machine runs many servers at once: a PostgreSQL call waiting a while for a
        // connection is load here, not an outage (DatabaseOutageTests sets its own).
        configuration.databaseTimeout = .seconds(60)
        return configuration
    }

    /// A fresh temporary folder, removed when the value is released.
    static func makeFolder() throws -> TestFolder {
        try TestFolder(prefix: "vesper-server-tests")
    }

    private init(server: VesperTestServer, store: TestStore, configuration: VesperServerConfiguration, logs: LogRecorder) {
        self.server = server
        self.store = store
        self.configuration = configuration
        self.logs = logs
        client = TestClient(baseURL: server.baseURL)
    }

    /// Runs `body` against a fresh server on `engine`, or on `store` when given (which then
    /// outlives the call), then shuts the server down and removes the store it made.
    static func with(
        _ engine: Engine,
        store existingStore: TestStore? = nil,
        _ configure: (inout VesperServerConfiguration) -> Void = { _ in },
        _ body: (TestEnvironment) async throws -> Void
    ) async throws {
        let store: TestStore
        if let existingStore { store = existingStore } else { store = try await TestStore.make(engine) }
        var configuration = makeConfiguration(store: store)
        configure(&configuration)
        let logs = LogRecorder()
        let server: VesperTestServer
        do {
            server = try await VesperTestServer.start(configuration, logger: logs.logger)
        } catch {
            if existingStore == nil { await store.remove() }
            throw error
        }
        let environment = TestEnvironment(server: server, store: store, configuration: configuration, logs: logs)
        do {
            try await body(environment)
        } catch {
            try await server.shutdown()
            if existingStore == nil { await store.remove() }
            throw error
        }
        try await server.shutdown()
        if existingStore == nil { await store.remove() }
    }

    /// Creates an account and logs in; returns the token.
    func signUp(_ username: String = "alice@example.com", password: String = "correct horse") async throws -> String {
        let created = try await client.send("POST", "createAccount", headers: TestClient.basic(username, password))
        #expect(created.status == 204, "createAccount: \(created.text)")
        return try await logIn(username, password: password)
    }

    func logIn(_ username: String = "alice@example.com", password: String = "correct horse") async throws -> String {
        let response = try await client.send(
            "POST", "login", headers: TestClient.basic(username, password), body: Data("{}".utf8))
        try #require(response.status == 200, "login: \(response.status) \(response.text)")
        let object = try #require(try response.jsonObject() as? [String: Any])
        return try #require(object["token"] as? String)
    }

    /// Raw SQL against the server's database (read-only use in tests).
    func databaseRows(_ sql: String) async throws -> [[SQLValueForTests]] {
        try await store.rows(sql)
    }
}

/// One HTTP exchange's result.
struct TestResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    func jsonObject() throws -> Any {
        try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
    }

    func jsonArray() throws -> [[String: Any]] {
        try #require(try jsonObject() as? [[String: Any]], "not an array of objects: \(text)")
    }
}

/// A URLSession client that does not follow redirects, so tests see 302s.
final class TestClient: Sendable {
    let baseURL: URL
    private let session: URLSession
    private let delegate = NoRedirects()

    init(baseURL: URL) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 120
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    static func basic(_ username: String, _ password: String) -> [String: String] {
        ["Authorization": "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()]
    }

    static func auth(_ token: String) -> [String: String] { ["x-zumo-auth": token] }

    /// Sends to `baseURL` + `path` (`path` may start with "/" for server-absolute paths).
    func send(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> TestResponse {
        let url: URL
        if path.hasPrefix("/") || path.hasPrefix("http") {
            let root = baseURL.absoluteString.replacingOccurrences(of: "/api/", with: "")
            url = try #require(URL(string: path.hasPrefix("http") ? path : root + path))
        } else {
            url = try #require(URL(string: baseURL.absoluteString + path))
        }
        return try await send(method, url: url, headers: headers, body: body)
    }

    func send(_ method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) async throws
        -> TestResponse
    {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = body
            if headers["Content-Type"] == nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key] = value }
        }
        return TestResponse(status: http.statusCode, headers: fields, body: data)
    }

    /// POSTs a JSON value (anything JSONSerialization accepts) with a login token.
    func post(_ path: String, token: String, json: Any, headers: [String: String] = [:]) async throws -> TestResponse {
        let body = try JSONSerialization.data(withJSONObject: json, options: [.fragmentsAllowed])
        return try await send("POST", path, headers: headers.merging(Self.auth(token)) { a, _ in a }, body: body)
    }
}

private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// A wire note for request bodies, with sensible defaults.
func wireNote(
    _ noteID: Int64, text: String? = "text", textDate: String? = "2014-06-12T16:44:29.099-07:00",
    creationDate: String = "2014-06-12T16:40:00.000-07:00", extra: [String: Any] = [:]
) -> [String: Any] {
    var note: [String: Any] = [
        "noteID": noteID, "archived": false, "creationDate": creationDate, "sortDate": creationDate,
    ]
    if let text { note["text"] = text }
    if let textDate { note["textModificationDate"] = textDate }
    for (key, value) in extra { note[key] = value }
    return note
}
