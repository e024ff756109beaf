import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to the test server, for requests that a well-behaved HTTP client
/// would never send: half-finished request heads, silence.
final class RawConnection: @unchecked Sendable {  // used by one test task at a time
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port` from `source`, another loopback address (127.0.0.2, …) when
    /// a test needs clients the server tells apart.
    init(port: Int, from source: String = "127.0.0.1") throws {
        descriptor = try Self.connectedSocket(port: port, from: source)
    }

    /// A socket connected to 127.0.0.1:`port`, or a thrown error with the socket closed.
    ///
    /// The descriptor becomes the object's only once connected: a class whose initializer
    /// throws after its properties are set still runs `deinit`, which would close the
    /// descriptor a second time, and by then the number may be another test's database file or
    /// server socket (a failed connect is routine: waiting for a server process polls with them).
    private static func connectedSocket(port: Int, from source: String) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawConnectionError.failed("socket", errno) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let error = errno
            close(descriptor)
            throw RawConnectionError.failed("bind", error)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(descriptor)
            throw RawConnectionError.failed("connect", error)
        }
        return descriptor
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw RawConnectionError.failed("send", errno)
        }
    }

    /// What arrives before `deadline`: the bytes read (empty when the server closed without
    /// sending any), or nil when nothing arrived and the connection is still open.
    func receive(until deadline: ContinuousClock.Instant) -> [UInt8]? {
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let remaining = deadline - .now
            guard remaining > .zero else { return nil }
            let milliseconds = Int32(min(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000, 60_000))
            let ready = poll(&pollDescriptor, 1, max(milliseconds, 1))
            if ready > 0 { break }
            if ready < 0 && errno != EINTR { return [] }
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    /// Whether the server closes the connection before `deadline` (whatever it sends first is
    /// read and dropped).
    func waitForClose(until deadline: ContinuousClock.Instant) -> Bool {
        while let bytes = receive(until: deadline) {
            if bytes.isEmpty { return true }
        }
        return false
    }

    /// ``receive(until:)`` on a thread of its own: a blocking wait on one of Swift's few
    /// cooperative threads would starve the in-process server the test is waiting for.
    func received(until deadline: ContinuousClock.Instant) async -> [UInt8]? {
        await Self.offCooperativePool { self.receive(until: deadline) }
    }

    /// ``waitForClose(until:)`` on a thread of its own, for the same reason.
    func closed(until deadline: ContinuousClock.Instant) async -> Bool {
        await Self.offCooperativePool { self.waitForClose(until: deadline) }
    }

    private static func offCooperativePool<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body()) }
        }
    }
}

enum RawConnectionError: Error {
    case failed(String, Int32)
}
