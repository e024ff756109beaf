import Foundation

/// How long the server waits on a client and how many clients it serves at once, so that
/// connections which never finish a request can't pile up.
///
/// ```swift
/// var configuration = VesperServerConfiguration(database: VesperDatabase("…"), attachmentsPath: "…")
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
    /// The most connections one client address may hold open at once, well below
    /// ``maximumConnections`` so that one address can't take every slot; a connection beyond it
    /// is closed as soon as it is accepted. Behind a reverse proxy every client has the proxy's
    /// address: raise it to ``maximumConnections`` there and let the proxy limit each client.
    public var maximumConnectionsPerAddress: Int
    /// The longest a request body may take to arrive, from its request head to its last byte.
    public var requestBodyTimeout: Duration
    /// The slowest a request body may arrive, in bytes per second of the time the server waits
    /// for it (time the server spends on other work doesn't count). A body that has kept the
    /// server waiting longer than ``bodyRateGrace`` plus its bytes at this rate is cut off.
    public var minimumBodyBytesPerSecond: Int
    /// The waiting any body is allowed before ``minimumBodyBytesPerSecond`` applies: a pause
    /// while a phone changes networks, the first bytes of a slow link.
    public var bodyRateGrace: Duration

    public init(
        requestHeadTimeout: Duration = .seconds(5), idleTimeout: Duration = .seconds(30), maximumConnections: Int = 1000,
        maximumConnectionsPerAddress: Int = 100, requestBodyTimeout: Duration = .seconds(600),
        minimumBodyBytesPerSecond: Int = 10_000, bodyRateGrace: Duration = .seconds(10)
    ) {
        self.requestHeadTimeout = requestHeadTimeout
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
        self.requestBodyTimeout = requestBodyTimeout
        self.minimumBodyBytesPerSecond = minimumBodyBytesPerSecond
        self.bodyRateGrace = bodyRateGrace
    }
}

extension Duration {
    /// The whole duration in nanoseconds (NIO's `TimeAmount` unit).
    var wholeNanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
