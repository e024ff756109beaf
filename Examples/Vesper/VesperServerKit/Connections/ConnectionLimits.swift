import Foundation

/// How long the server waits on a client and how many clients it serves at once, so that
/// connections which never finish a request can't pile up.
///
/// ```swift
/// var configuration = VesperServerConfiguration(databasePath: "…", attachmentsPath: "…")
/// configuration.connectionLimits = ConnectionLimits(requestHeadTimeout: .seconds(5), idleTimeout: .seconds(30), maximumConnections: 2000)
/// ```
public struct ConnectionLimits: Sendable, Equatable {
    /// How long a new connection may take to send its first complete request head (request
    /// line and headers). A connection that has not by then is closed.
    public var requestHeadTimeout: Duration
    /// How long a connection may sit idle: between requests on a kept-alive connection (the
    /// next request head must be complete within this time), and between the parts of a
    /// request body. An idle connection is closed.
    public var idleTimeout: Duration
    /// The most connections served at once. Beyond it the server stops accepting until one
    /// closes; waiting clients queue in the kernel's backlog.
    public var maximumConnections: Int

    public init(requestHeadTimeout: Duration = .seconds(5), idleTimeout: Duration = .seconds(30), maximumConnections: Int = 1000) {
        self.requestHeadTimeout = requestHeadTimeout
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
    }
}

extension Duration {
    /// The whole duration in nanoseconds (NIO's `TimeAmount` unit).
    var wholeNanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
