import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
        #elseif canImport(Darwin)
        let queue = DispatchQueue(label: "QSData.fileChanges", qos: .utility)
        let sources = [path, path + "-wal"].compactMap { Self.vnodeSource(path: $0, queue: queue, onChange: onChange) }
        if sources.isEmpty { return nil }
        stopWatching = { sources.forEach { $0.cancel() } }
        #else
        return nil
        #endif
    }

    func stop() { stopWatching() }

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

#if canImport(Glibc)
/// The process's one inotify instance: a watch per folder, shared by the stores whose databases
/// are in it, and the handlers to call for each file's events.
private final class InotifyHub: @unchecked Sendable {
    static let shared: InotifyHub? = InotifyHub()

    private struct Watcher {
        let folderWatch: Int32
        let names: Set<String>
        let onChange: @Sendable () -> Void
    }

    private let descriptor: Int32
    private let queue = DispatchQueue(label: "QSData.fileChanges", qos: .utility)
    private let source: any DispatchSourceRead
    private let watchers = LockedState<[UUID: Watcher]>([:])

    private init?() {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [unowned self] in handleEvents() }
        source.resume()
    }

    /// Starts calling `onChange` for writes of the database at `path` or its write-ahead log.
    func watch(path: String, onChange: @escaping @Sendable () -> Void) -> UUID? {
        let url = URL(fileURLWithPath: path)
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO)
        let names: Set<String> = [url.lastPathComponent, url.lastPathComponent + "-wal"]
        // Under the lock, so that a folder's watch is never removed as another store adds it.
        return watchers.withLock { watchers in
            // Watching a folder watched already returns its watch again.
            let folderWatch = inotify_add_watch(descriptor, url.deletingLastPathComponent().path, mask)
            guard folderWatch >= 0 else { return nil }
            let id = UUID()
            watchers[id] = Watcher(folderWatch: folderWatch, names: names, onChange: onChange)
            return id
        }
    }

    /// Stops calling a handler; the folder's watch goes once no handler needs it.
    func stopWatching(_ id: UUID) {
        watchers.withLock { watchers in
            guard let removed = watchers.removeValue(forKey: id),
                  !watchers.values.contains(where: { $0.folderWatch == removed.folderWatch })
            else { return }
            inotify_rm_watch(descriptor, removed.folderWatch)
        }
    }

    private func handleEvents() {
        let firstEvents = Self.drainEvents(descriptor)
        source.suspend()
        queue.asyncAfter(deadline: .now() + FileChangeWatcher.settleInterval) { [unowned self] in
            callHandlers(for: firstEvents + Self.drainEvents(descriptor))
            // Events that come meanwhile are folded together by the system and read at once later.
            queue.asyncAfter(deadline: .now() + FileChangeWatcher.quietInterval) { [unowned self] in source.resume() }
        }
    }

    private func callHandlers(for events: [(watch: Int32, name: String)]) {
        let handlers = watchers.withLock { watchers in
            watchers.values.filter { watcher in
                events.contains { $0.watch == watcher.folderWatch && watcher.names.contains($0.name) }
            }.map(\.onChange)
        }
        handlers.forEach { $0() }
    }

    /// Reads every waiting event: the folder's watch and the name of the file written.
    private static func drainEvents(_ descriptor: Int32) -> [(watch: Int32, name: String)] {
        var events: [(watch: Int32, name: String)] = []
        let bufferSize = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, bufferSize)
            guard count > 0 else { return events }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                if event.len > 0 {
                    let name = buffer.advanced(by: nameStart).assumingMemoryBound(to: CChar.self)
                    events.append((event.wd, String(cString: name)))
                }
                offset = nameStart + Int(event.len)
            }
        }
    }
}
#endif
