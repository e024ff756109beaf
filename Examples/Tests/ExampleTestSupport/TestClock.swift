import Foundation
import Synchronization

/// A clock the tests move by hand, in whole milliseconds (what survives a trip through the
/// sync server), so no test depends on how fast the machine is.
public final class TestClock: Sendable {
    private let current: Mutex<Date>

    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Mutex(Date(timeIntervalSince1970: (start.timeIntervalSince1970 * 1_000).rounded(.down) / 1_000))
    }

    /// The clock's time now.
    public var date: Date { current.withLock { $0 } }

    /// Moves the clock forward.
    public func advance(_ seconds: TimeInterval = 60) {
        current.withLock { $0 += seconds }
    }
}
