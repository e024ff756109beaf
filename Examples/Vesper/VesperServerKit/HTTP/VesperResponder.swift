import HTTPTypes
import Hummingbird
import Logging
import NIOHTTP1

/// Routes every request and turns every failure into the protocol's status codes.
///
/// Endpoint names under `api/` match without regard to case and repeated slashes collapse; the
/// operation under `blobs` is compared exactly. Errors never escape as bare 500s: an
/// ``APIError`` becomes its response, anything else a logged 500.
struct VesperResponder: HTTPResponder {
    typealias Context = VesperRequestContext

    let api: VesperAPI

    func respond(to request: Request, context: VesperRequestContext) async throws -> Response {
        let start = ContinuousClock.now
        let target = RequestTarget(request.head.path ?? "/")
        let response: Response
        do {
            response = try await route(request, target: target, context: context)
        } catch let error as APIError {
            response = error.response
        } catch StorageError.revokedLogin {
            response = APIError.unauthorized.response
        } catch StorageError.unavailable {
            // Logged where it was found, with the call and the reason.
            response = APIError.serviceUnavailable(retryAfter: 5).response
        } catch let error as RequestBodyTooSlow {
            context.logger.notice("Request body cut off", metadata: ["reason": "\(error.reason)", "client": "\(context.clientAddress)"])
            response = APIError.requestTimeout(error.reason).response
        } catch let error as HTTPParserError {
            // The body's framing broke after the head was read (a chunk size that overflows,
            // a transfer coding that isn't chunked): the client's mistake, and the connection
            // can't carry another request.
            response = APIError.malformedFraming("\(error)").response
        } catch {
            context.logger.error("Request failed", metadata: ["error": "\(error)"])
            response = .text("internal server error", status: .internalServerError)
        }
        let elapsed = ContinuousClock.now - start
        context.logger.info(
            "\(request.method) \(Self.loggablePath(target))",
            metadata: [
                "status": "\(response.status.code)",
                "ms": "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
                "client": "\(context.clientAddress)",
            ])
        return response
    }

    /// The path without capabilities or query values (they are secrets or personal data).
    private static func loggablePath(_ target: RequestTarget) -> String {
        if target.segments.first == "blobstore" { return "/blobstore/…" }
        return "/" + target.segments.joined(separator: "/")
    }

    private func route(_ request: Request, target: RequestTarget, context: VesperRequestContext) async throws
        -> Response
    {
        let segments = target.segments
        let method = request.method
        guard let first = segments.first else { throw APIError.notFound }

        if first == "blobstore", segments.count == 2 {
            switch method {
            case .put: return try await api.putBlob(request, capability: segments[1], context: context)
            case .get: return try await api.getBlob(request, capability: segments[1], context: context)
            default: throw APIError.methodNotAllowed(allowed: [.get, .put])
            }
        }
        guard first.lowercased() == "api", segments.count >= 2 else { throw APIError.notFound }
        let name = segments[1].lowercased()

        func only(_ allowed: HTTPRequest.Method, _ handler: () async throws -> Response) async throws -> Response {
            guard segments.count == 2 else { throw APIError.notFound }
            guard method == allowed else { throw APIError.methodNotAllowed(allowed: [allowed]) }
            return try await handler()
        }

        switch name {
        case "createaccount": return try await only(.post) { try await api.createAccount(request, context: context) }
        case "login": return try await only(.post) { try await api.login(request, context: context) }
        case "forgotpassword": return try await only(.post) { try await api.forgotPassword(request, context: context) }
        case "resetpassword": return try await only(.post) { try await api.resetPassword(request, context: context) }
        case "changepasswordauthenticated":
            return try await only(.post) { try await api.changePassword(request, context: context) }
        case "emailupdates":
            guard segments.count == 2 else { throw APIError.notFound }
            switch method {
            case .get: return try await api.emailUpdates(request, context: context)
            case .post: return try await api.setEmailUpdates(request, context: context)
            default: throw APIError.methodNotAllowed(allowed: [.get, .post])
            }
        case "tags": return try await only(.post) { try await api.tags(request, context: context) }
        case "deletednotes": return try await only(.post) { try await api.deletedNotes(request, context: context) }
        case "notes": return try await only(.post) { try await api.notes(request, context: context) }
        case "blobs": return try await routeBlobs(request, target: target, context: context)
        default: throw APIError.notFound
        }
    }

    private func routeBlobs(_ request: Request, target: RequestTarget, context: VesperRequestContext) async throws
        -> Response
    {
        let segments = target.segments
        guard segments.count <= 3 else { throw APIError.notFound }
        let operation = segments.count == 3 ? segments[2] : nil
        switch request.method {
        case .delete:
            return try await api.deleteBlob(request, name: operation, context: context)
        case .get:
            switch operation {
            case "list": return try await api.listBlobs(request, context: context)
            case "urlForUploading": return try await api.urlForUploading(request, target: target, context: context)
            case "download": return try await api.downloadBlob(request, target: target, context: context)
            default: throw APIError.notFound
            }
        default:
            throw APIError.methodNotAllowed(allowed: [.get, .delete])
        }
    }
}
