import HTTPTypes
import Hummingbird

/// A failure with the exact status and body the protocol prescribes (PROTOCOL.md, "Transport").
enum APIError: Error, Equatable {
    /// 400 with a plain-text explanation (malformed or wrongly shaped input).
    case badRequest(String)
    /// 400 for a body whose HTTP framing is broken; the connection is closed after it.
    case malformedFraming(String)
    /// 400 with one of createAccount's machine-readable constants (`VSErrorInvalidUsername`, …).
    case accountError(String)
    /// 401: missing, forged, expired or revoked token; wrong credentials.
    case unauthorized
    case forbidden(String)
    case notFound
    case methodNotAllowed(allowed: [HTTPRequest.Method])
    case payloadTooLarge(limit: Int)
    /// 408: the body arrived too slowly and was cut off; the connection is closed after it.
    case requestTimeout(String)
    /// 413: more elements in one request than the server takes (`what` is "notes", …).
    case tooManyElements(what: String, limit: Int)
    case tooManyRequests(retryAfter: Int)
    /// 503: the database can't be reached; the client should retry later.
    case serviceUnavailable(retryAfter: Int)

    var response: Response {
        switch self {
        case .badRequest(let message): return .text(message, status: .badRequest)
        case .malformedFraming(let problem):
            var response = Response.text("the request's HTTP framing is malformed: \(problem)", status: .badRequest)
            response.headers[.connection] = "close"
            return response
        case .accountError(let constant): return .text(constant, status: .badRequest)
        case .unauthorized: return .text("unauthorized", status: .unauthorized)
        case .forbidden(let message): return .text(message, status: .forbidden)
        case .notFound: return .text("not found", status: .notFound)
        case .methodNotAllowed(let allowed):
            var response = Response.text("method not allowed", status: .methodNotAllowed)
            response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
            return response
        case .payloadTooLarge(let limit):
            return .text("the request body is larger than \(limit) bytes", status: .contentTooLarge)
        case .requestTimeout(let reason):
            var response = Response.text(reason, status: .requestTimeout)
            response.headers[.connection] = "close"
            return response
        case .tooManyElements(let what, let limit):
            return .text("at most \(limit) \(what) per request", status: .contentTooLarge)
        case .serviceUnavailable(let seconds):
            var response = Response.text("the database is unavailable; retry later", status: .serviceUnavailable)
            response.headers[.retryAfter] = String(seconds)
            return response
        case .tooManyRequests(let seconds):
            var response = Response.text("too many attempts; retry later", status: .tooManyRequests)
            response.headers[.retryAfter] = String(seconds)
            return response
        }
    }
}

extension Response {
    static func text(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: try JSONBody.encode(value)))
    }

    /// A JSON body written by hand (see ``WireNotesResponse``).
    static func json(bytes: ByteBuffer) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: bytes))
    }

    static func empty(_ status: HTTPResponse.Status) -> Response {
        Response(status: status)
    }
}
