import Foundation

/// Collects the statements connections run while recording is on: the database queue's (by
/// SQLite's trace callback), and the reader connections' while reads pass a background write.
///
/// Created on the main actor; filled from those connections' threads, under a lock, until the
/// main actor takes what it collected.
final class StatementRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    func record(_ sql: String) {
        lock.lock()
        recorded.append(sql)
        lock.unlock()
    }

    var statements: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }
}
