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
/// however far apart the two devices' clocks are.
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
    func next() -> SyncStamp {
        lock.withLock {
            let wall = Int64((wallClock.now().timeIntervalSince1970 * 1000).rounded(.down))
            if wall > milliseconds {
                milliseconds = min(wall, SyncStamp.maximumMilliseconds)
                counter = 0
            } else if counter < SyncStamp.maximumCounter {
                counter += 1
            } else {
                // Sixty-five thousand stamps in one millisecond: borrow the next one.
                milliseconds += 1
                counter = 0
            }
            return SyncStamp(milliseconds: milliseconds, counter: counter, replica: replica)
        }
    }

    /// Moves past a stamp received from elsewhere, so the next one made is later.
    func observe(_ stamp: SyncStamp) {
        lock.withLock {
            if (stamp.milliseconds, stamp.counter) > (milliseconds, counter) {
                milliseconds = stamp.milliseconds
                counter = stamp.counter
            }
        }
    }
}
