import Hummingbird
import Logging
import NIOCore

/// The per-request context: Hummingbird's core storage plus the client's address, which login
/// throttling keys on.
struct VesperRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address, for throttling and logs.
    var clientAddress: String {
        remoteAddress?.ipAddress ?? "unknown"
    }
}
