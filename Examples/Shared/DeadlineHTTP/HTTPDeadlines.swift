/// How long a network operation may take, in three parts. Whichever runs out first ends it
/// with an ``HTTPTransferError`` that names it.
///
/// ```swift
/// let deadlines = HTTPDeadlines(connect: .seconds(10), firstByte: .seconds(15), total: .seconds(60))
/// ```
public struct HTTPDeadlines: Sendable, Equatable {
    /// To establish the connection (TCP and, for https, TLS).
    public var connect: Duration
    /// The longest silence from the server: before the first byte of the response, and
    /// between any two reads after it.
    public var firstByte: Duration
    /// The whole operation, from the first connection attempt to the last byte of the body,
    /// redirects included. A server that trickles bytes can't stretch it.
    public var total: Duration

    public init(connect: Duration = .seconds(10), firstByte: Duration = .seconds(30), total: Duration = .seconds(60)) {
        self.connect = connect
        self.firstByte = firstByte
        self.total = total
    }

    /// Deadlines from a command line's `--timeout` and `--connect-timeout` seconds: silence may
    /// last half the total, and neither part is longer than the total.
    public init(totalSeconds: Double, connectSeconds: Double) {
        let total = Duration.milliseconds(Int64(totalSeconds * 1000))
        self.init(connect: min(.milliseconds(Int64(connectSeconds * 1000)), total), firstByte: total / 2, total: total)
    }
}

extension HTTPDeadlines {
    /// These deadlines, none longer than `remaining`: a call within a run that has one
    /// deadline for all its calls gets what is left of it.
    public func limited(to remaining: Duration) -> HTTPDeadlines {
        HTTPDeadlines(connect: min(connect, remaining), firstByte: min(firstByte, remaining), total: min(total, remaining))
    }
}

extension Duration {
    /// Whole milliseconds, for NIO's time amounts.
    var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// "1.5 s", "60 s": how a deadline reads in a message.
    public var secondsText: String {
        let milliseconds = wholeMilliseconds
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}
