import ArgumentParser
import Foundation
import QSDataSync

/// Many clients, each its own account, pushing and pulling against running servers for a bounded
/// time; prints pushes and pulls per second, latencies and errors.
struct Load: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Push and pull from many clients against running servers (127.0.0.1 only).",
        discussion: "Each client creates its own account, then repeats: push 10 changed objects, pull since its token.")

    @Option(help: ArgumentHelp("Servers, comma-separated; clients are spread over them.", valueName: "urls"))
    var servers: String
    @Option(help: "Concurrent clients.") var clients = 50
    @Option(help: "Seconds of load.") var seconds: Double = 20

    func validate() throws {
        for server in servers.split(separator: ",") {
            guard let url = URL(string: String(server)), let host = url.host, host == "127.0.0.1" || host == "localhost" else {
                throw ValidationError("load goes to servers on this machine only (127.0.0.1), not \(server)")
            }
        }
        guard clients > 0, seconds > 0, seconds <= 600 else { throw ValidationError("--clients must be positive, --seconds 0–600") }
    }

    func run() async throws {
        let urls = servers.split(separator: ",").compactMap { URL(string: String($0)) }
        let run = UUID().uuidString.prefix(6)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let results = try await withThrowingTaskGroup(of: ClientResult.self) { group in
            for client in 0..<clients {
                let server = urls[client % urls.count]
                group.addTask { try await Self.client(number: client, server: server, run: String(run), until: deadline) }
            }
            var all: [ClientResult] = []
            for try await result in group { all.append(result) }
            return all
        }
        let pushes = results.flatMap(\.pushLatencies).sorted(), pulls = results.flatMap(\.pullLatencies).sorted()
        let errors = results.reduce(0) { $0 + $1.errors }
        func percentile(_ list: [Double], _ p: Double) -> Double { list.isEmpty ? 0 : list[min(list.count - 1, Int(Double(list.count) * p))] * 1000 }
        print(String(format: "%d clients, %d servers, %.0f s: %.1f pushes/s, %.1f pulls/s; push p50 %.1f ms p99 %.1f ms; pull p50 %.1f ms p99 %.1f ms; %d errors",
                     clients, urls.count, seconds, Double(pushes.count) / seconds, Double(pulls.count) / seconds,
                     percentile(pushes, 0.5), percentile(pushes, 0.99), percentile(pulls, 0.5), percentile(pulls, 0.99), errors))
    }

    struct ClientResult: Sendable {
        var pushLatencies: [Double] = []
        var pullLatencies: [Double] = []
        var errors = 0
    }

    static func client(number: Int, server: URL, run: String, until deadline: ContinuousClock.Instant) async throws -> ClientResult {
        let username = "load-\(run)-\(number)"
        try await QSSyncHTTPTransport.createAccount(server: server, username: username, password: "load test password")
        let session = try await QSSyncHTTPTransport.logIn(server: server, username: username, password: "load test password")
        let transport = QSSyncHTTPTransport(server: server, token: session.token)
        let replica = SyncReplicaID.random()
        var result = ClientResult()
        var token: String?
        var round: Int64 = 0
        let clock = ContinuousClock()
        while clock.now < deadline {
            round += 1
            let stamp = SyncStamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000), counter: Int(round % 65_536), replica: replica)
            let change = SyncChange(
                table: "articles", ids: (0..<10).map { SyncID.string("\(number)-\(round)-\($0)") }, created: stamp,
                values: ["title": .text("title \(round)"), "read": .integer(0)], stamps: ["title": stamp, "read": stamp])
            do {
                let start = clock.now
                _ = try await transport.push(SyncPushRequest(replica: replica, changes: [change]))
                result.pushLatencies.append(seconds(clock.now - start))
                let pullStart = clock.now
                token = try await transport.pull(since: token, limit: 2_000).token
                result.pullLatencies.append(seconds(clock.now - pullStart))
            } catch {
                result.errors += 1
            }
        }
        return result
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
