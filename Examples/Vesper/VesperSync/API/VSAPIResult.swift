import Foundation

/// Everything about one finished API call: the request, the response, the status, the raw and
/// the parsed body, and the error. Nothing is hidden from the account that reads it.
public struct VSAPIResult: Sendable {
    /// The request as last sent (after a re-login, the retry).
    public var request: VSHTTPRequest
    /// The response; nil when the request failed before one arrived.
    public var response: VSHTTPResponse?
    /// The response's body; nil when there was no response.
    public var data: Data?
    /// The body parsed as JSON; nil for an empty body (204) or one that is not JSON.
    public var json: VSJSON?
    /// Why the call failed; nil when it succeeded.
    public var error: VSAPIError?

    /// The HTTP status, 0 when there was no response.
    public var statusCode: Int { response?.statusCode ?? 0 }

    /// Success as the protocol defines it: a response below 400 and no transport error.
    public var succeeded: Bool { error == nil }

    /// The response's `Date` header, parsed; nil when missing or not an HTTP date.
    public var serverDate: Date? { response?.header("Date").flatMap(VSSyncDate.date(fromHTTP:)) }

    /// The `x-vesper-synctoken` header of a successful response.
    public var syncToken: String? { succeeded ? response?.header(VSAPICaller.syncTokenHeader) : nil }

    init(request: VSHTTPRequest, response: VSHTTPResponse) {
        self.request = request
        self.response = response
        self.data = response.body
        self.json = response.body.isEmpty ? nil : try? VSJSON.parse(response.body)
        if response.statusCode >= 400 {
            error = .status(response.statusCode, body: String(decoding: response.body.prefix(200), as: UTF8.self))
        }
    }

    init(request: VSHTTPRequest, error: VSAPIError) {
        self.request = request
        self.error = error
    }
}

/// Why an API call failed, for one line in a terminal.
public enum VSAPIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No response: the server could not be reached, the connection failed, a deadline passed,
    /// or the response was refused; the reason says which in words.
    case transport(String)
    /// The server answered with an error status.
    case status(Int, body: String)
    /// A user-level call could not get a login token.
    case notLoggedIn(String)

    public var description: String {
        switch self {
        case .transport(let reason): reason
        case .status(let status, let body): body.isEmpty ? "the server answered HTTP \(status)" : "the server answered HTTP \(status): \(body)"
        case .notLoggedIn(let reason): "not logged in (\(reason.hasSuffix(".") ? String(reason.dropLast()) : reason))"
        }
    }
}
