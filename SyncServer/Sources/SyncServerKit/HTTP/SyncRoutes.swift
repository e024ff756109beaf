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
                return try await service.pull(since: query.get("since"), limit: limit, replica: replica, group: query.get("group"), accountID: account)
            }
        }
        addBlobRoutes(to: router, service: service)
        addGroupRoutes(to: router, service: service)
        return router
    }

    /// `GET /v1/blobs/SHA256/parts`, `PUT /v1/blobs/SHA256/parts/INDEX`, `GET /v1/blobs/SHA256`,
    /// each with `?size=N`. The SHA-256 in the path names bytes in the database, never a file.
    private static func addBlobRoutes(to router: Router<BasicRequestContext>, service: SyncService) {
        let prefix = SyncProtocol.pathPrefix
        router.get("\(prefix)/blobs/:sha256/parts") { request, context in
            await answer {
                let account = try await service.account(forToken: bearerToken(request))
                return try await service.blobStatus(try blob(request, context), group: request.uri.queryParameters.get("group"), accountID: account)
            }
        }
        router.put("\(prefix)/blobs/:sha256/parts/:index") { request, context in
            await answer {
                let account = try await service.account(forToken: bearerToken(request))
                let reference = try blob(request, context)
                guard let index = context.parameters.get("index").flatMap(Int.init) else {
                    throw SyncServiceError.malformedBody("a part index is a whole number")
                }
                let bytes: ByteBuffer
                do {
                    bytes = try await request.body.collect(upTo: SyncProtocol.blobPartSize)
                } catch {
                    throw SyncServiceError.tooLarge("a blob part is at most \(SyncProtocol.blobPartSize) bytes")
                }
                return try await service.uploadBlobPart(
                    reference, index: index, bytes: Data(bytes.readableBytesView), group: request.uri.queryParameters.get("group"), accountID: account)
            }
        }
        router.get("\(prefix)/blobs/:sha256") { request, context -> Response in
            do {
                let account = try await service.account(forToken: bearerToken(request))
                let bytes = try await service.downloadBlob(try blob(request, context), group: request.uri.queryParameters.get("group"), accountID: account)
                return Response(
                    status: .ok, headers: [.contentType: "application/octet-stream"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
            } catch {
                return await answer { () async throws -> [String: String] in throw error }
            }
        }
    }

    /// `GET /v1/groups`, `POST /v1/groups`, `PUT` and `DELETE /v1/groups/ID/members/USERNAME`.
    private static func addGroupRoutes(to router: Router<BasicRequestContext>, service: SyncService) {
        let prefix = SyncProtocol.pathPrefix
        router.get("\(prefix)/groups") { request, _ in
            await answer { try await service.groups(accountID: try await service.account(forToken: bearerToken(request))) }
        }
        router.post("\(prefix)/groups") { request, context in
            await answer(status: .created) {
                let account = try await service.account(forToken: bearerToken(request))
                return try await service.createGroup(try await decode(SyncGroupRequest.self, from: request, context: context), accountID: account)
            }
        }
        router.put("\(prefix)/groups/:group/members/:username") { request, context in
            await answer {
                let account = try await service.account(forToken: bearerToken(request))
                let (group, username) = try member(context)
                return try await service.addMember(username, toGroup: group, accountID: account)
            }
        }
        router.delete("\(prefix)/groups/:group/members/:username") { request, context in
            await answer {
                let account = try await service.account(forToken: bearerToken(request))
                let (group, username) = try member(context)
                return try await service.removeMember(username, fromGroup: group, accountID: account)
            }
        }
    }

    /// The group and username a member's path names.
    private static func member(_ context: BasicRequestContext) throws -> (group: String, username: String) {
        guard let group = context.parameters.get("group"), let username = context.parameters.get("username") else {
            throw SyncServiceError.malformedBody("a member's path is /v1/groups/GROUP/members/USERNAME")
        }
        return (group, username.removingPercentEncoding ?? username)
    }

    /// The blob a path and its `size` query name.
    private static func blob(_ request: Request, _ context: BasicRequestContext) throws -> SyncBlobReference {
        guard let hash = context.parameters.get("sha256"), let size = request.uri.queryParameters.get("size").flatMap(Int64.init),
              let reference = SyncBlobReference(sha256: hash, size: size)
        else { throw SyncServiceError.malformedBody("a blob is named by 64 lowercase hex digits of SHA-256 and ?size= its bytes") }
        return reference
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
            if error.status == 503 { response.headers[.retryAfter] = "5" }
            return response
        } catch {
            var response = json(SyncErrorResponse(code: "unavailable", message: "the server could not answer: \(error)"), status: .serviceUnavailable)
            response.headers[.retryAfter] = "5"
            return response
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
