#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value shared between threads, read and changed only under a lock.
///
/// QSData targets OS versions older than the standard library's `Mutex` and `Atomic` (macOS 15,
/// iOS 18), so it keeps its own small lock box (`.ci/check-platform-apis` keeps it that way).
/// The value and the lock live in one allocation: the store makes a few of these for every write
/// (its ticket, its record of what it changed in memory), and Foundation's `NSLock` alone is
/// three allocations on Linux.
struct LockedState<Value>: @unchecked Sendable {
    private let storage: LockStorage<Value>

    init(_ value: Value) {
        storage = LockStorage.make(holding: value)
    }

    /// Runs `body` with the value, holding the lock; what `body` returns is returned.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}

/// The allocation behind a ``LockedState``: the value as the buffer's header, the platform's
/// lock as its one element.
private final class LockStorage<Value>: ManagedBuffer<Value, PlatformLock> {
    static func make(holding value: Value) -> LockStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        // `create` makes an instance of the class it is called on.
        let storage = unsafeDowncast(buffer, to: LockStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { PlatformLock.initialize($0) }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { PlatformLock.destroy($0) }
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, lock in
            PlatformLock.lock(lock)
            defer { PlatformLock.unlock(lock) }
            return try body(&value.pointee)
        }
    }
}

#if canImport(Darwin)
private typealias PlatformLock = os_unfair_lock

extension os_unfair_lock {
    fileprivate static func initialize(_ lock: UnsafeMutablePointer<os_unfair_lock>) { lock.initialize(to: os_unfair_lock()) }
    fileprivate static func destroy(_ lock: UnsafeMutablePointer<os_unfair_lock>) { lock.deinitialize(count: 1) }
    fileprivate static func lock(_ lock: UnsafeMutablePointer<os_unfair_lock>) { os_unfair_lock_lock(lock) }
    fileprivate static func unlock(_ lock: UnsafeMutablePointer<os_unfair_lock>) { os_unfair_lock_unlock(lock) }
}
#else
private typealias PlatformLock = pthread_mutex_t

extension pthread_mutex_t {
    fileprivate static func initialize(_ lock: UnsafeMutablePointer<pthread_mutex_t>) {
        // Fails only for attributes this does not pass, or when out of memory.
        precondition(pthread_mutex_init(lock, nil) == 0, "pthread_mutex_init failed")
    }

    fileprivate static func destroy(_ lock: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_mutex_destroy(lock)
        lock.deinitialize(count: 1)
    }

    fileprivate static func lock(_ lock: UnsafeMutablePointer<pthread_mutex_t>) { pthread_mutex_lock(lock) }
    fileprivate static func unlock(_ lock: UnsafeMutablePointer<pthread_mutex_t>) { pthread_mutex_unlock(lock) }
}
#endif
