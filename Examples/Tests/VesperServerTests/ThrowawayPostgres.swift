import ExampleTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL cluster of the test's own in a temporary folder, on a free loopback port, that a
/// test may freeze, crash and start again: Debian's `postgresql` binaries, run as the `postgres`
/// user when the test runs as root (initdb refuses root). Stopped and removed by ``remove()``.
final class ThrowawayPostgres: @unchecked Sendable {  // used by one test at a time
    /// The newest installed `bin` folder with initdb, if any.
    static let binaries: URL? = {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.sorted { $0.compare($1, options: .numeric) == .orderedAscending }
            .map { root.appendingPathComponent($0).appendingPathComponent("bin") }
            .last { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) }
    }()

    let port: Int
    private let folder: URL
    private let binaries: URL
    private var data: URL { folder.appendingPathComponent("data") }

    /// `postgres://postgres@127.0.0.1:PORT/postgres`, without TLS.
    var url: String { "postgres://postgres@127.0.0.1:\(port)/postgres?sslmode=disable" }

    /// Makes and starts a cluster (a few seconds), off Swift's cooperative threads: a test's
    /// blocking wait there would starve the in-process servers of every other test.
    static func make() async throws -> ThrowawayPostgres {
        try await offCooperativePool { try ThrowawayPostgres() }
    }

    private init() throws {
        guard let binaries = Self.binaries else { throw ThrowawayPostgresError.notInstalled }
        self.binaries = binaries
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("vesper-outage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try LoopbackSocket(listening: false).port
        if getuid() == 0 { try Self.shell("chown postgres:postgres '\(folder.path)'") }
        try postgres("initdb -D '\(data.path)' -U postgres -A trust --no-sync >/dev/null")
        try startNow()
    }

    func start() async throws {
        try await Self.offCooperativePool { try self.startNow() }
    }

    private func startNow() throws {
        try postgres(
            "pg_ctl -D '\(data.path)' -l '\(folder.path)/log' -w -t 30 start "
                + "-o \"-c listen_addresses=127.0.0.1 -p \(port) -k '\(folder.path)' -c fsync=off -c max_connections=100\" >/dev/null")
    }

    /// Every process of the cluster stops where it is: connections stay open and nothing answers.
    func freeze() async throws { try await Self.offCooperativePool { try self.signalCluster("STOP") } }

    func thaw() async throws { try await Self.offCooperativePool { try self.signalCluster("CONT") } }

    /// The server and every backend quit at once, without a checkpoint, as in a crash.
    func crash() async throws {
        try await Self.offCooperativePool { try self.postgres("pg_ctl -D '\(self.data.path)' -m immediate -w -t 30 stop >/dev/null") }
    }

    /// Stops the cluster (thawed first, if frozen) and removes its folder.
    func remove() {
        try? signalCluster("CONT")
        try? postgres("pg_ctl -D '\(data.path)' -m immediate -w -t 30 stop >/dev/null 2>&1")
        try? FileManager.default.removeItem(at: folder)
    }

    /// The postmaster (the first line of postmaster.pid) and its children, by process ID.
    private func signalCluster(_ signal: String) throws {
        let pidFile = try String(contentsOf: data.appendingPathComponent("postmaster.pid"), encoding: .utf8)
        guard let postmaster = pidFile.split(separator: "\n").first.flatMap({ Int32($0) }) else {
            throw ThrowawayPostgresError.noPostmaster
        }
        try Self.shell("kill -\(signal) \(postmaster) $(pgrep -P \(postmaster)) 2>/dev/null || true")
    }

    private func postgres(_ command: String) throws {
        let line = binaries.path + "/" + command
        try Self.shell(getuid() == 0 ? "runuser -u postgres -- sh -c \"\(line.replacingOccurrences(of: "\"", with: "\\\""))\"" : line)
    }

    /// Runs `body` on a thread of its own.
    static func offCooperativePool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `command` with /bin/sh and waits for it. posix_spawn and waitpid rather than
    /// Foundation's Process, whose wait on Linux can miss the exit of a shell that started a
    /// daemon (it stays a zombie and the wait never ends).
    private static func shell(_ command: String) throws {
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ)
        guard spawned == 0 else { throw ThrowawayPostgresError.failed(command, spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw ThrowawayPostgresError.failed(command, errno) }
        }
        let exitCode = (status >> 8) & 0xFF
        guard status & 0x7F == 0, exitCode == 0 else { throw ThrowawayPostgresError.failed(command, exitCode) }
    }
}

enum ThrowawayPostgresError: Error {
    case notInstalled, noPostmaster
    case failed(String, Int32)
}
