import Foundation

/// A value shared between threads, read and changed only under a lock.
///
/// QSData targets OS versions older than the standard library's `Mutex` and `Atomic` (macOS 15,
/// iOS 18), so it keeps its own small lock box on Foundation's `NSLock` (`.ci/check-platform-apis`
/// keeps it that way).
final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock; what `body` returns is returned.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
