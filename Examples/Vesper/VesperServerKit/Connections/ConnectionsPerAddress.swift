import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

/// How many connections each client address holds open, shared by every connection's
/// ``ConnectionsPerAddressHandler``.
final class ConnectionsPerAddress: Sendable {
    let limit: Int
    private let counts = Mutex<[String: Int]>([:])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Counts one more connection from `address`, unless it already holds `limit`.
    func admit(_ address: String) -> Bool {
        counts.withLock { counts in
            let current = counts[address, default: 0]
            guard current < limit else { return false }
            counts[address] = current + 1
            return true
        }
    }

    func release(_ address: String) {
        counts.withLock { counts in
            let remaining = counts[address, default: 1] - 1
            counts[address] = remaining > 0 ? remaining : nil
        }
    }

    /// How many connections `address` holds (for tests).
    func count(_ address: String) -> Int {
        counts.withLock { $0[address, default: 0] }
    }
}

/// Closes a new connection whose client address already holds its share of connections, so
/// that no single address can take every one of the server's connection slots.
final class ConnectionsPerAddressHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let connections: ConnectionsPerAddress
    private let logger: Logger
    /// The address counted for this connection, once admitted.
    private var admitted: String?

    init(connections: ConnectionsPerAddress, logger: Logger) {
        self.connections = connections
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard admitted == nil, let address = context.channel.remoteAddress?.ipAddress else { return }
        if connections.admit(address) {
            admitted = address
        } else {
            logger.debug("Connection refused: too many from one address", metadata: ["client": "\(address)"])
            context.close(promise: nil)
        }
    }

    private func release() {
        if let address = admitted {
            connections.release(address)
            admitted = nil
        }
    }
}
