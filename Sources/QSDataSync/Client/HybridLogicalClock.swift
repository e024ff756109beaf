import Foundation

/// The wall clock a replica's stamps start from: the system's, or one a test moves (a simulated
/// device whose clock is an hour fast, say).
public struct QSSyncClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    public static let system = QSSyncClock { Date() }
}

/// A hybrid logical clock: stamps follow the wall clock, never go backwards, and move past every
/// stamp the replica receives, so an edit made after seeing another is stamped later than it
/// however far apart the two devices' clocks are. It takes no stamp from further ahead than the
/// server takes one from a replica (see ``canReceive(_:)``).
///
/// Touched only on the database queue (in the store's write transactions), where its reading
/// is saved with the stamps it made; the lock is for the compiler's sake.
final class HybridLogicalClock: @unchecked Sendable {
    let replica: SyncReplicaID
    private let wallClock: QSSyncClock
    private let lock = NSLock()
    private var milliseconds: Int64
    private var counter: Int

    init(replica: SyncReplicaID, wallClock: QSSyncClock, last: SyncStamp?) {
        self.replica = replica
        self.wallClock = wallClock
        milliseconds = last?.milliseconds ?? 0
        counter = last?.counter ?? 0
    }

    /// The last stamp made or seen, to save.
    var reading: SyncStamp {
        lock.withLock { SyncStamp(milliseconds: milliseconds, counter: counter, replica: replica) }
    }

    /// A new stamp, later than every one made or seen before.
    ///
    /// - Throws: ``QSSyncError/clockExhausted(reading:)`` when the clock already reads the last
    ///   stamp there is (a damaged file's reading: ``canReceive(_:)`` keeps pulled stamps from
    ///   taking it there).
    func next() throws -> SyncStamp {
        try lock.withLock {
            let wall = wallMilliseconds()
            if wall > milliseconds {
                milliseconds = min(wall, SyncStamp.maximumMilliseconds)
                counter = 0
            } else if counter < SyncStamp.maximumCounter {
                counter += 1
            } else if milliseconds < SyncStamp.maximumMilliseconds {
                // Sixty-five thousand stamps in one millisecond: borrow the next one.
                milliseconds += 1
                counter = 0
            } else {
                let reading = SyncStamp(milliseconds: milliseconds, counter: counter, replica: replica)
                throw QSSyncError.clockExhausted(reading: reading.text)
            }
            return SyncStamp(milliseconds: milliseconds, counter: counter, replica: replica)
        }
    }

    /// Whether the clock may take `stamp` from elsewhere: a stamp no further ahead of this
    /// device's clock than twice what the server lets a stamp be ahead of its own. The server
    /// accepts stamps up to that limit ahead of its clock, and this device's clock may be behind
    /// the server's, so a single limit here would refuse stamps the server rightly took; the
    /// clock moves past every stamp it takes, so one from much further ahead would stamp this
    /// replica's edits past what the server accepts, or reach the last stamp there is.
    func canReceive(_ stamp: SyncStamp) -> Bool {
        let leeway = Int64(2 * SyncProtocol.stampLeeway * 1000)
        let (latest, overflowed) = wallMilliseconds().addingReportingOverflow(leeway)
        // Never the last millisecond itself: ``next()`` must still find a later stamp.
        return stamp.milliseconds <= min(overflowed ? .max : latest, SyncStamp.maximumMilliseconds - 1)
    }

    /// Moves past a stamp received from elsewhere (one ``canReceive(_:)`` admits), so the next
    /// one made is later.
    func observe(_ stamp: SyncStamp) {
        lock.withLock {
            if (stamp.milliseconds, stamp.counter) > (milliseconds, counter) {
                milliseconds = stamp.milliseconds
                counter = stamp.counter
            }
        }
    }

    private func wallMilliseconds() -> Int64 {
        Int64((wallClock.now().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
