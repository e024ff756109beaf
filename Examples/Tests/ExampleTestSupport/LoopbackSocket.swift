import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP socket bound to 127.0.0.1 on a free port, for tests that need a port where nothing
/// answers: not listening, connecting is refused; listening, the kernel completes connections
/// that nobody accepts. Closed when the value goes away, so hold it for the whole test: no other
/// test's server can take the port meanwhile.
public final class LoopbackSocket {
    public let port: Int
    private let descriptor: Int32

    public init(listening: Bool) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && (!listening || listen(descriptor, 16) == 0)
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        if !ready { close(descriptor) }
        try #require(ready)
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `http://127.0.0.1:PORT/name`.
    public func url(_ name: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(name)")!
    }

    deinit {
        close(descriptor)
    }
}
