import ExampleTestSupport
import Foundation

/// The built `vesper-server` in a child process on a free loopback port, over a fresh folder.
final class ServerProcess: Sendable {
    /// The executable beside the test bundle, when the build made it.
    static let executable: URL? = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent(), folder.deletingLastPathComponent().deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent("vesper-server") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    let port: Int
    private let process: ChildProcess
    private let folder: TestFolder

    private init(port: Int, process: ChildProcess, folder: TestFolder) {
        self.port = port
        self.process = process
        self.folder = folder
    }

    /// ``start(_:)`` on a thread of its own, for async tests: its blocking wait on one of
    /// Swift's few cooperative threads would starve every in-process server of other tests.
    static func started(_ arguments: [String]) async throws -> ServerProcess {
        try await ThrowawayPostgres.offCooperativePool { try ServerProcess.start(arguments) }
    }

    /// Starts the server with `arguments` and returns once it accepts connections (10 s at most).
    static func start(_ arguments: [String]) throws -> ServerProcess {
        let executable = try requireExecutable()
        let folder = try TestEnvironment.makeFolder()
        let port = try freePort()
        let process = try ChildProcess(
            executable,
            ["--port", String(port), "--database", folder.appending("db.sqlite").path,
             "--attachments", folder.appending("attachments").path, "--log-level", "error"] + arguments,
            environment: ["VESPER_SERVER_SECRET": "test secret", "HOME": folder.url.path],
            standardOutput: .discarded, standardError: .inherited)
        let server = ServerProcess(port: port, process: process, folder: folder)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if (try? RawConnection(port: port)) != nil { return server }
            Thread.sleep(forTimeInterval: 0.05)
        }
        server.stop()
        throw ServerProcessError.didNotStart
    }

    func stop() {
        process.kill(SIGTERM)
        process.waitUntilEnded()
    }

    /// Sends SIGTERM and waits up to `limit` (on a thread of its own) for the process to end;
    /// true when it did. A process still running then is killed.
    func terminate(within limit: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.terminateNow(within: limit)) }
        }
    }

    private func terminateNow(within limit: Duration) -> Bool {
        process.kill(SIGTERM)
        let deadline = ContinuousClock.now + limit
        while process.ended == nil && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let ended = process.ended != nil
        if !ended { process.kill(SIGKILL) }
        process.waitUntilEnded()
        return ended
    }

    private static func requireExecutable() throws -> URL {
        guard let executable else { throw ServerProcessError.notBuilt }
        return executable
    }

    /// A port the kernel just handed out for a listener on 127.0.0.1.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw ServerProcessError.noFreePort }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

enum ServerProcessError: Error {
    case notBuilt, didNotStart, noFreePort
}
