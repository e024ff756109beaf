import Dispatch
import Foundation

/// Calls a handler soon after a database file or its write-ahead log is written, by this process
/// or another: how a store hears of other writers' commits without being asked.
///
/// On Linux one inotify instance serves every store of the process (the system allows a user
/// 128 of them), watching each database's folder; on Apple systems each store has vnode sources
/// on its file and write-ahead log. A wake-up is only a hint: the store then asks SQLite whether
/// another connection committed (`PRAGMA data_version`), and it asks again before every fetch
/// and write anyway, so a lost or spurious wake-up delays or costs a look, never loses a change.
final class FileChangeWatcher: @unchecked Sendable {
    private let stopWatching: @Sendable () -> Void
    /// Holds the watch quiet and returns what ends the quiet; nil where that is not done.
    private let holdQuiet: @Sendable () -> (@Sendable () -> Void)?

    /// A first event waits this long before the handler runs, so that the rest of its burst can
    /// arrive: a commit writes each page to the write-ahead log as a header and the page, two
    /// writes and two events, and a handler run at the first would look before the commit is done
    /// and find nothing, leaving the commit to the next wake-up, a quiet interval later.
    static let settleInterval: DispatchTimeInterval = .milliseconds(2)

    /// After a wake-up, events wait this long before the next is read: a store's own large write
    /// appends to its write-ahead log thousands of times, and meanwhile the system folds the
    /// events of one file into one. Short, because a change that comes within it (another
    /// writer's, just after the store's own) waits for its end: a look costs one
    /// `PRAGMA data_version`, and at most one look waits on the database queue at a time.
    static let quietInterval: DispatchTimeInterval = .milliseconds(5)

    /// Starts watching the database at `path`. Returns nil where no watching is possible.
    init?(path: String, onChange: @escaping @Sendable () -> Void) {
        #if canImport(Glibc)
        guard let hub = InotifyHub.shared, let id = hub.watch(path: path, onChange: onChange) else { return nil }
        stopWatching = { hub.stopWatching(id) }
        holdQuiet = {
            guard let folderWatch = hub.quiet(id) else { return nil }
            return { hub.endQuiet(folderWatch) }
        }
        #elseif canImport(Darwin)
        let queue = DispatchQueue(label: "QSData.fileChanges", qos: .utility)
        let sources = [path, path + "-wal"].compactMap { Self.vnodeSource(path: $0, queue: queue, onChange: onChange) }
        if sources.isEmpty { return nil }
        stopWatching = { sources.forEach { $0.cancel() } }
        // Left as it is on Apple systems: what a vnode source's events cost a writing thread was
        // never measured there (this project builds and measures on Linux).
        holdQuiet = { nil }
        #else
        return nil
        #endif
    }

    func stop() { stopWatching() }

    /// Holds the watch quiet while the store's own write transaction runs, between its `BEGIN`
    /// and the end of its `COMMIT` or `ROLLBACK`: a large write appends to the write-ahead log
    /// thousands of times, and on Linux every append queued an event the writing thread paid
    /// for (up to a tenth of a bulk update's time). No other connection can commit meanwhile, as
    /// the transaction holds the write lock. The quiet ends when the returned value does, with a
    /// wake-up, as the write's own events would have made: another writer may commit between the
    /// store's commit and the end of the quiet.
    func quietDuringOwnWrite() -> OwnWriteQuiet? {
        holdQuiet().map(OwnWriteQuiet.init)
    }

    deinit { stopWatching() }

    #if canImport(Darwin)
    private static func vnodeSource(path: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) -> (any DispatchSourceProtocol)? {
        let descriptor = open(path, O_EVTONLY)
        guard descriptor >= 0 else { return nil }
        let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: descriptor, eventMask: [.write, .extend], queue: queue)
        // The handler holds the source until the source is cancelled, which releases the handler.
        source.setEventHandler {
            source.suspend()
            queue.asyncAfter(deadline: .now() + settleInterval) {
                onChange()
                queue.asyncAfter(deadline: .now() + quietInterval) { source.resume() }
            }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        return source
    }
    #endif
}

/// The file watcher held quiet for one write transaction (see
/// ``FileChangeWatcher/quietDuringOwnWrite()``): ended by ``end()``, or when let go.
final class OwnWriteQuiet {
    private var endQuiet: (@Sendable () -> Void)?

    init(end: @escaping @Sendable () -> Void) {
        endQuiet = end
    }

    func end() {
        endQuiet?()
        endQuiet = nil
    }

    deinit { end() }
}
