import Foundation
import Hummingbird
import NIOCore
import QSDataSync

/// The protocol's endpoints on a Hummingbird router: each decodes its body, calls the
/// ``SyncService`` and answers JSON; every failure is the protocol's error body.
enum SyncRoutes {
    /// The largest request body accepted.
    static let maximumBodyBytes = 64 * 1024 * 1024

    static func make(service: SyncService) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        let prefix = SyncProtocol.pathPrefix
        router.post("\(prefix)/accounts") { request, context in
            await answer(status: .created) {
                let credentials = try await decode(SyncCredentials.self, from: request, context: context)
                try await service.createAccount(credentials)
                return ["username": credentials.username]
            }
        }
        router.post("\(prefix)/sessions") { request, context in
            await answer {
                try await service.logIn(try await decode(SyncCredentials.self, from: request, context: context))
            }
        }
        router.post("\(prefix)/push") { request, context in
            await answer {
                let account = try await service.account(forToken: bearerToken(request))
                return try await service.push(try await decode(SyncPushRequest.self, from: request, context: context), accountID: account)
            }
        }
        router.get("\(prefix)/pull") { request, _ in
            await answer {
                let account = try await service.account(forToken: bearerToken(request))
                let query = request.uri.queryParameters
                var limit: Int?
                if let text = query.get("limit") {
                    guard let number = Int(text) else { throw SyncServiceError.malformedBody("limit must be a whole number, not \(text)") }
                    limit = number
                }
                var replica: SyncReplicaID?
                if let text = query.get("replica") {
                    guard let id = SyncReplicaID(text: text) else { throw SyncServiceError.malformedBody("replica must be 16 lowercase hex digits") }
                    replica = id
                }
                return try await service.pull(since: query.get("since"), limit: limit, replica: replica, accountID: account)
            }
        }
        return router
    }

    private static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
        return String(header.dropFirst("Bearer ".count))
    }

    private static func decode<Body: Decodable>(_ type: Body.Type, from request: Request, context: BasicRequestContext) async throws -> Body {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBodyBytes)
        } catch {
            throw SyncServiceError.tooLarge("a request body is at most \(maximumBodyBytes / 1024 / 1024) MiB")
        }
        do {
            return try SyncProtocol.makeDecoder().decode(type, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw SyncServiceError.malformedBody(describe(error))
        } catch {
            throw SyncServiceError.malformedBody("not JSON")
        }
    }

    /// Runs `work` and answers its value as JSON, or its failure as the protocol's error.
    private static func answer(status: HTTPResponse.Status = .ok, _ work: () async throws -> some Encodable) async -> Response {
        do {
            return json(try await work(), status: status)
        } catch let error as SyncServiceError {
            var response = json(SyncErrorResponse(code: error.code, message: error.message), status: .init(code: error.status))
            if error.code == "tooManyAttempts", let seconds = error.message.split(separator: " ").compactMap({ Int($0) }).first {
                response.headers[.retryAfter] = String(seconds)
            }
            return response
        } catch {
            return json(SyncErrorResponse(code: "unavailable", message: "the server could not answer: \(error)"), status: .serviceUnavailable)
        }
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status) -> Response {
        let data = (try? SyncProtocol.makeEncoder().encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Where a body went wrong, in words.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty ? "the body" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath)): missing \(key.stringValue)"
        @unknown default:
            return "the body is not what the endpoint takes"
        }
    }
}
