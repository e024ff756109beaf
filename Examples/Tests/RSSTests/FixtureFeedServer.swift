import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import Testing

/// An HTTP server on 127.0.0.1 (a free port) that serves fixture feeds the way a careful web
/// server does — `ETag` and `Last-Modified`, 304 to a matching conditional GET — plus
/// redirects and errors, and counts every request.
final class FixtureFeedServer: Sendable {
    /// What a path answers.
    enum Route: Sendable {
        case feed(body: String, etag: String, lastModified: String)
        case redirect(status: Int, to: String)
        case status(Int)
        /// Any status, headers and body bytes, sent as they are (a compressed body, a
        /// `Retry-After`).
        case response(status: Int, headers: [String: String], body: [UInt8])
    }

    /// One request as the server saw it.
    struct Request: Sendable, Equatable {
        var path: String
        var ifNoneMatch: String?
        var ifModifiedSince: String?
        var acceptEncoding: String?
        var status: Int
    }

    private struct State {
        var routes: [String: Route] = [:]
        var requests: [Request] = []
        var running = 0
        var mostAtOnce = 0
    }

    private let state = Mutex(State())
    private let group: ServiceGroup
    private let task: Task<Void, any Error>
    let port: Int

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// Starts a server; it accepts connections when this returns. Call ``shutdown()``.
    static func start() async throws -> FixtureFeedServer {
        let box = Mutex<FixtureFeedServer?>(nil)
        let router = Router()
        router.get(":name") { request, context -> Response in
            guard let server = box.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
            return server.respond(to: "/" + (context.parameters.get("name") ?? ""), headers: request.headers)
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "fixture-feed-server")
        logger.logLevel = .warning
        let application = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "fixture-feeds"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let server = FixtureFeedServer(port: port, group: group, task: task)
        box.withLock { $0 = server }
        return server
    }

    /// Stops the server and waits for it to end.
    func shutdown() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }

    /// `http://127.0.0.1:PORT/name`.
    func url(_ name: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(name)")!
    }

    /// Serves `route` at `/name` from now on.
    func set(_ name: String, _ route: Route) {
        state.withLock { $0.routes["/" + name] = route }
    }

    /// Every request so far, in order.
    var requests: [Request] { state.withLock { $0.requests } }

    /// The most requests the server was answering at the same moment.
    var mostRequestsAtOnce: Int { state.withLock { $0.mostAtOnce } }

    private func respond(to path: String, headers: HTTPFields) -> Response {
        let route = state.withLock { state -> Route? in
            state.running += 1
            state.mostAtOnce = max(state.mostAtOnce, state.running)
            return state.routes[path]
        }
        let response: Response
        switch route {
        case .feed(let body, let etag, let lastModified):
            let unchanged = headers[.ifNoneMatch].map { $0 == etag } ?? (headers[.ifModifiedSince] == lastModified)
            var fields: HTTPFields = [.eTag: etag, .lastModified: lastModified]
            if unchanged {
                response = Response(status: .notModified, headers: fields)
            } else {
                fields[.contentType] = "application/rss+xml; charset=utf-8"
                response = Response(status: .ok, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
            }
        case .redirect(let status, let location):
            response = Response(status: HTTPResponse.Status(code: status), headers: [.location: location])
        case .status(let status):
            response = Response(status: HTTPResponse.Status(code: status))
        case .response(let status, let headers, let body):
            var fields = HTTPFields()
            for (name, value) in headers {
                if let name = HTTPField.Name(name) { fields[name] = value }
            }
            response = Response(status: HTTPResponse.Status(code: status), headers: fields,
                                body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        case nil:
            response = Response(status: .notFound)
        }
        state.withLock { state in
            state.running -= 1
            state.requests.append(Request(path: path, ifNoneMatch: headers[.ifNoneMatch],
                                          ifModifiedSince: headers[.ifModifiedSince], acceptEncoding: headers[.acceptEncoding],
                                          status: response.status.code))
        }
        return response
    }
}
