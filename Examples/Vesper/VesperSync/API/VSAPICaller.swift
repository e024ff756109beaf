import Foundation

/// One method per endpoint the client uses (PROTOCOL.md). It knows no account state and no model:
/// every method takes what it sends as parameters and returns a ``VSAPIResult``. User-level
/// calls get their token from ``authenticator``.
///
/// ```swift
/// let caller = VSAPICaller(serverURL: URL(string: "http://127.0.0.1:8080/")!)
/// let result = await caller.login(username: "alice@example.com", password: "correct horse")
/// ```
@MainActor
public final class VSAPICaller {
    /// The server's root; API paths are `api/<name>` below it.
    public let serverURL: URL
    /// Supplies tokens for user-level calls.
    public weak var authenticator: (any VSAPIAuthenticator)?
    /// Hears every finished call, including blob PUTs (the account reads the `Date` header).
    public var didFinishCall: ((VSAPIResult) -> Void)?

    private let transport: any VSHTTPTransport

    /// - Parameter serverURL: the server's root (`http://host:port/`); a URL ending in `/api/`
    ///   (as servers print it) means its parent.
    public init(serverURL: URL, transport: any VSHTTPTransport = VSNetworkTransport()) {
        self.serverURL = Self.root(of: serverURL)
        self.transport = transport
    }

    // MARK: Accounts

    /// `POST api/createAccount`: 204 when created; 400 with `VSErrorUsernameAlreadyExists`,
    /// `VSErrorInvalidUsername` or `VSErrorInvalidPassword` in the body otherwise.
    public func createAccount(username: String, password: String, emailUpdates: Bool) async -> VSAPIResult {
        await call(post("createAccount", body: .object(["emailUpdates": .bool(emailUpdates)]), basic: (username, password)))
    }

    /// `POST api/login` with body `{}`: 200 `{"token": …}`, or 401 for wrong credentials.
    public func login(username: String, password: String) async -> VSAPIResult {
        await call(post("login", body: .object([:]), basic: (username, password)))
    }

    /// `POST api/forgotpassword`.
    public func forgotPassword(username: String) async -> VSAPIResult {
        await call(post("forgotpassword", body: .object(["username": .string(username)])))
    }

    // MARK: Sync

    /// `POST api/tags` with every local tag: the server's newer or missing tags come back.
    public func uploadTags(_ tags: [VSJSON]) async -> VSAPIResult {
        await call(post("tags", body: .array(tags)), authenticated: true)
    }

    /// `POST api/deletedNotes` with the IDs deleted here: every tombstone the server had comes back.
    public func uploadDeletedNotes(_ noteIDs: [Int64]) async -> VSAPIResult {
        await call(post("deletedNotes", body: .array(noteIDs.map(VSJSON.integer))), authenticated: true)
    }

    /// `POST api/notes` with changed notes and the sync token of the last call, if any.
    public func uploadNotes(_ notes: [VSJSON], syncToken: String?) async -> VSAPIResult {
        var request = post("notes", body: .array(notes))
        // The answer holds every note changed on the server: it grows with the library, so
        // only each note in it is bounded.
        request.responseLimit = .perArrayElement
        if let syncToken { request.headers[Self.syncTokenHeader] = syncToken }
        return await call(request, authenticated: true)
    }

    // MARK: Blobs

    /// `GET api/blobs/list`: `[{"name", "contentType"}]`.
    public func listBlobs() async -> VSAPIResult {
        await call(get("blobs/list"), authenticated: true)
    }

    /// `GET api/blobs/urlForUploading?…`: `{"url", "additionalHeaders"?}` to PUT the bytes to.
    public func urlForUploading(filename: String, md5: String, mimeType: String, contentLength: Int, date: Date) async -> VSAPIResult {
        let query = [
            ("filename", filename), ("md5", md5), ("mimeType", mimeType),
            ("date", VSSyncDate.httpString(from: date)), ("contentLength", String(contentLength)),
        ]
        return await call(get("blobs/urlForUploading", query: query), authenticated: true)
    }

    /// PUTs a file's bytes to the URL from ``urlForUploading(filename:md5:mimeType:contentLength:date:)``,
    /// without any `x-zumo-*` header: the URL itself authorises the upload.
    public func putBlob(to url: URL, data: Data, mimeType: String, md5: String, additionalHeaders: [String: String]) async -> VSAPIResult {
        var headers = additionalHeaders
        headers["Content-Type"] = mimeType
        headers["Content-MD5"] = md5
        return await call(VSHTTPRequest(method: "PUT", url: url, headers: headers, body: data))
    }

    /// `GET api/blobs/download?filename=…`: the bytes (after any redirect).
    public func downloadBlob(filename: String) async -> VSAPIResult {
        await call(get("blobs/download", query: [("filename", filename)]), authenticated: true)
    }

    /// `DELETE api/blobs/<filename>`.
    public func deleteBlob(filename: String) async -> VSAPIResult {
        await call(VSHTTPRequest(method: "DELETE", url: apiURL("blobs/" + Self.percentEncoded(filename)), headers: baseHeaders()),
                   authenticated: true)
    }

    // MARK: Requests

    nonisolated static let applicationHeader = "x-zumo-application"
    nonisolated static let authHeader = "x-zumo-auth"
    nonisolated static let syncTokenHeader = "x-vesper-synctoken"
    /// The application key every request carries; self-hosted servers accept any value.
    nonisolated static let applicationKey = "VesperQSDataSwiftSyncClient00001"

    private func call(_ request: VSHTTPRequest, authenticated: Bool = false) async -> VSAPIResult {
        let result = await VSAPICall(request: request, authenticated: authenticated).run(transport: transport, authenticator: authenticator)
        didFinishCall?(result)
        return result
    }

    private func baseHeaders() -> [String: String] {
        [Self.applicationHeader: Self.applicationKey]
    }

    private func post(_ name: String, body: VSJSON, basic credentials: (String, String)? = nil) -> VSHTTPRequest {
        var headers = baseHeaders()
        headers["Content-Type"] = "application/json"
        if let (username, password) = credentials {
            headers["Authorization"] = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        }
        // Encoding a VSJSON value can't fail (no non-finite doubles are ever built here).
        return VSHTTPRequest(method: "POST", url: apiURL(name), headers: headers, body: (try? body.data()) ?? Data("[]".utf8))
    }

    private func get(_ name: String, query: [(String, String)] = []) -> VSHTTPRequest {
        VSHTTPRequest(method: "GET", url: apiURL(name, query: query), headers: baseHeaders())
    }

    /// `<root>api/<name>?<query>`: keys sorted case-insensitively, keys and values
    /// percent-encoded leaving only ASCII letters and digits.
    func apiURL(_ name: String, query: [(String, String)] = []) -> URL {
        var string = serverURL.absoluteString + "api/" + name
        if !query.isEmpty {
            string += "?" + query.sorted { $0.0.lowercased() < $1.0.lowercased() }
                .map { Self.percentEncoded($0.0) + "=" + Self.percentEncoded($0.1) }
                .joined(separator: "&")
        }
        return URL(string: string) ?? serverURL
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    static func percentEncoded(_ string: String) -> String {
        string.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// The root of a server URL: with a trailing slash, without a final `api` component.
    static func root(of url: URL) -> URL {
        var string = url.absoluteString
        while string.hasSuffix("/") { string.removeLast() }
        if string.hasSuffix("/api") { string.removeLast(3) } else { string += "/" }
        return URL(string: string) ?? url
    }
}
