import Foundation

/// The server's clock in whole milliseconds, read from the configuration's ``VesperServerConfiguration/now``,
/// so that token, reset-link and blob-URL expiry and the sync dates all follow one clock a test
/// can move by hand.
struct ServerClock: Sendable {
    let now: @Sendable () -> Date

    /// The wall clock.
    static let system = ServerClock(now: { Date() })

    /// Milliseconds since 1970, rounded down.
    func milliseconds() -> Int64 {
        Int64((now().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The date `lifetime` from now, in milliseconds (an expiry).
    func milliseconds(after lifetime: Duration) -> Int64 {
        let parts = lifetime.components
        return milliseconds() + parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
    }
}
