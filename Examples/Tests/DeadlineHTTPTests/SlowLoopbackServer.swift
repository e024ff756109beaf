import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A hostile HTTP server on 127.0.0.1: it accepts connections and then either never answers
/// (``Behaviour/silent``) or sends a response head at once and then its body one byte at a time
/// (``Behaviour/trickle(interval:)``), forever: never silent long enough for a read timeout,
/// only a deadline on the whole transfer ends it. One thread per connection, ended by ``stop()``.
///
/// A descriptor is closed exactly once, by its owner, after which nothing here touches it again:
/// the process runs many tests at once, and a stray `shutdown` or `close` of a number the
/// kernel has since handed to another test's socket or database file breaks that test.
final class SlowLoopbackServer: Sendable {
    enum Behaviour: Sendable {
        case silent
        case trickle(interval: Duration)
    }

    let port: Int
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)
    /// The connections still open; each is closed by the thread serving it, under this lock.
    private let connections = Mutex<Set<Int32>>([])

    init(_ behaviour: Behaviour) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        var length = size
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, size) == 0 && listen(descriptor, 64) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard descriptor >= 0, bound else {
            let error = errno
            if descriptor >= 0 { close(descriptor) }
            throw SlowServerError.cannotListen(error)
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop(behaviour) }
        thread.start()
    }

    /// Stops accepting and ends every connection. The listener is closed once the accepting
    /// thread, which holds the server, has let go of it.
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        shutdown(listener, Int32(SHUT_RDWR))
        connections.withLock { open in
            for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    deinit { close(listener) }

    private func acceptLoop(_ behaviour: Behaviour) {
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            connections.withLock { _ = $0.insert(connection) }
            let thread = Thread { [self] in serve(connection, behaviour) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32, _ behaviour: Behaviour) {
        defer {
            connections.withLock { open in
                open.remove(connection)
                close(connection)
            }
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        switch behaviour {
        case .silent:
            // Read and drop whatever comes, answer nothing, until the client or stop() closes.
            while buffer.withUnsafeMutableBytes({ recv(connection, $0.baseAddress, $0.count, 0) }) > 0 {}
        case .trickle(let interval):
            let head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: 1000000\r\n\r\n".utf8)
            guard head.withUnsafeBytes({ send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == head.count else { return }
            while !stopped.load(ordering: .sequentiallyConsistent) {
                guard [UInt8(ascii: " ")].withUnsafeBytes({ send(connection, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }) == 1 else { return }
                Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
            }
        }
    }
}

enum SlowServerError: Error {
    case cannotListen(Int32)
}
