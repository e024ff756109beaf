#if canImport(Glibc)
import Dispatch
import Foundation
import Glibc

/// The process's one inotify instance: a watch per folder, shared by the stores whose databases
/// are in it, and the handlers to call for each file's events.
///
/// A folder's watch can be held quiet while a store of this process writes (see
/// ``quiet(_:)``): the kernel then makes no event for each page the write appends to the
/// write-ahead log, which cost the writing thread an allocation and a comparison each.
final class InotifyHub: @unchecked Sendable {
    static let shared: InotifyHub? = InotifyHub()

    /// Every change that can mean another connection committed: a write to a file of the folder,
    /// and a file made or moved into it (a write-ahead log made anew).
    static let watchingMask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO)
    /// While quiet, writes make no event; files made or moved in still do.
    static let quietMask = UInt32(IN_CREATE | IN_MOVED_TO)

    private struct Watcher {
        let folder: String
        let folderWatch: Int32
        let names: Set<String>
        let onChange: @Sendable () -> Void
    }

    /// A folder's watch held quiet, and by how many writes.
    private struct QuietFolder {
        let folder: String
        var count: Int
    }

    private struct State {
        var watchers: [UUID: Watcher] = [:]
        var quietFolders: [Int32: QuietFolder] = [:]
    }

    private let descriptor: Int32
    private let queue = DispatchQueue(label: "QSData.fileChanges", qos: .utility)
    /// Nil for a hub whose events only ``drainEvents()`` reads.
    private let source: (any DispatchSourceRead)?
    private let state = LockedState(State())

    /// `readsEvents` false leaves the events for ``drainEvents()`` to read: for tests of the hub
    /// itself. The shared hub reads them as they come and is never released.
    init?(readsEvents: Bool = true) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard readsEvents else {
            source = nil
            return
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        self.source = source
        source.setEventHandler { [unowned self] in handleEvents() }
        source.resume()
    }

    deinit {
        if source == nil { close(descriptor) }
    }

    /// Starts calling `onChange` for writes of the database at `path` or its write-ahead log.
    func watch(path: String, onChange: @escaping @Sendable () -> Void) -> UUID? {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let names: Set<String> = [url.lastPathComponent, url.lastPathComponent + "-wal"]
        // Under the lock, so that a folder's watch is never removed as another store adds it.
        return state.withLock { state in
            // Watching a folder watched already returns its watch again (and sets its mask: a
            // folder held quiet stays so until its writes end).
            let folderWatch = inotify_add_watch(descriptor, folder, Self.watchingMask)
            guard folderWatch >= 0 else { return nil }
            if state.quietFolders[folderWatch] != nil { inotify_add_watch(descriptor, folder, Self.quietMask) }
            let id = UUID()
            state.watchers[id] = Watcher(folder: folder, folderWatch: folderWatch, names: names, onChange: onChange)
            return id
        }
    }

    /// Stops calling a handler; the folder's watch goes once no handler needs it.
    func stopWatching(_ id: UUID) {
        state.withLock { state in
            guard let removed = state.watchers.removeValue(forKey: id),
                  !state.watchers.values.contains(where: { $0.folderWatch == removed.folderWatch })
            else { return }
            state.quietFolders[removed.folderWatch] = nil
            inotify_rm_watch(descriptor, removed.folderWatch)
        }
    }

    /// Holds the folder of watcher `id` quiet until ``endQuiet(_:)``: for the length of a write
    /// transaction of that store's. While it holds the database's write lock no other connection
    /// can commit to it, so what the kernel would report is the store's own writes. Other
    /// databases in the folder are not heard meanwhile either; the end of the quiet wakes every
    /// watcher of the folder, which then looks, so a change is seen late, never lost.
    /// Returns the folder's watch to end the quiet with, nil for a watcher stopped already.
    func quiet(_ id: UUID) -> Int32? {
        state.withLock { state in
            guard let watcher = state.watchers[id] else { return nil }
            if let quiet = state.quietFolders[watcher.folderWatch] {
                state.quietFolders[watcher.folderWatch]?.count = quiet.count + 1
            } else {
                inotify_add_watch(descriptor, watcher.folder, Self.quietMask)
                state.quietFolders[watcher.folderWatch] = QuietFolder(folder: watcher.folder, count: 1)
            }
            return watcher.folderWatch
        }
    }

    /// Ends one ``quiet(_:)`` of a folder's watch. The last to end makes the folder heard again
    /// and wakes all its watchers: another connection may have committed between the store's
    /// commit and now, and its writes made no event.
    func endQuiet(_ folderWatch: Int32) {
        let woken: [@Sendable () -> Void] = state.withLock { state in
            // Gone when every watcher of the folder stopped meanwhile, and the watch with them.
            guard let quiet = state.quietFolders[folderWatch] else { return [] }
            guard quiet.count == 1 else {
                state.quietFolders[folderWatch]?.count = quiet.count - 1
                return []
            }
            state.quietFolders[folderWatch] = nil
            inotify_add_watch(descriptor, quiet.folder, Self.watchingMask)
            return state.watchers.values.filter { $0.folderWatch == folderWatch }.map(\.onChange)
        }
        guard !woken.isEmpty else { return }
        queue.async { woken.forEach { $0() } }
    }

    private func handleEvents() {
        guard let source else { return }
        let firstEvents = drainEvents()
        source.suspend()
        queue.asyncAfter(deadline: .now() + FileChangeWatcher.settleInterval) { [unowned self] in
            callHandlers(for: firstEvents + drainEvents())
            // Events that come meanwhile are folded together by the system and read at once later.
            queue.asyncAfter(deadline: .now() + FileChangeWatcher.quietInterval) { [unowned self] in self.source?.resume() }
        }
    }

    private func callHandlers(for events: [(watch: Int32, name: String)]) {
        let handlers = state.withLock { state in
            state.watchers.values.filter { watcher in
                events.contains { $0.watch == watcher.folderWatch && watcher.names.contains($0.name) }
            }.map(\.onChange)
        }
        handlers.forEach { $0() }
    }

    /// Reads every waiting event: the folder's watch and the name of the file it concerns.
    func drainEvents() -> [(watch: Int32, name: String)] {
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
