import ExampleTestSupport
import Foundation
import Testing
import VesperServerTestSupport

@testable import VesperServerKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A live server on a free port over a fresh temporary folder, and a client for it.
final class TestEnvironment: Sendable {
    let server: VesperTestServer
    let client: TestClient
    let folder: URL
    let configuration: VesperServerConfiguration
    /// What the server logged (info and above).
    let logs: LogRecorder

    static func makeConfiguration(folder: URL) -> VesperServerConfiguration {
        var configuration = VesperServerConfiguration(
            databasePath: folder.appendingPathComponent("vesper.sqlite").path,
            attachmentsPath: folder.appendingPathComponent("attachments").path,
            secret: "test secret")
        configuration.bcryptCost = 4
        return configuration
    }

    static func makeFolder() throws -> TestFolder {
        try TestFolder(prefix: "vesper-server-tests")
    }

    private init(server: VesperTestServer, folder: URL, configuration: VesperServerConfiguration, logs: LogRecorder) {
        self.server = server
        self.folder = folder
        self.configuration = configuration
        self.logs = logs
        client = TestClient(baseURL: server.baseURL)
    }

    /// Runs `body` against a fresh server, then shuts the server down and removes its folder.
    static func with(
        folder existingFolder: TestFolder? = nil,
        _ configure: (inout VesperServerConfiguration) -> Void = { _ in },
        _ body: (TestEnvironment) async throws -> Void
    ) async throws {
        let testFolder = try existingFolder ?? makeFolder()
        let folder = testFolder.url
        var configuration = makeConfiguration(folder: folder)
        configure(&configuration)
        let logs = LogRecorder()
        let server = try await VesperTestServer.start(configuration, logger: logs.logger)
        let environment = TestEnvironment(server: server, folder: folder, configuration: configuration, logs: logs)
        do {
            try await body(environment)
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
        withExtendedLifetime(testFolder) {}
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

    /// Raw SQL against the server's database file (read-only use in tests).
    func databaseRows(_ sql: String) throws -> [[SQLValueForTests]] {
        try DatabaseInspector(path: configuration.databasePath).rows(sql)
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
