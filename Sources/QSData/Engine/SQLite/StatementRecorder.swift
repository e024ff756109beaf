/// Collects the statements connections run while recording is on: the database queue's (by
/// SQLite's trace callback), and the reader connections' while reads pass a background write.
///
/// Created on the main actor; filled from those connections' threads, under a lock, until the
/// main actor takes what it collected.
final class StatementRecorder: Sendable {
    private let recorded = LockedState<[String]>([])

    func record(_ sql: String) {
        recorded.withLock { $0.append(sql) }
    }

    var statements: [String] {
        recorded.withLock { $0 }
    }
}
