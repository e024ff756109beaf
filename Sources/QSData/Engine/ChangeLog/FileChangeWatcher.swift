import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Calls `onChange` soon after the database file or its write-ahead log is written, by this
/// process or another: how a store hears of other writers' commits without being asked.
///
/// On Linux it watches the file's folder with inotify; on Apple systems, the write-ahead log and
/// the file with vnode sources. A wake-up is only a hint: the store then asks SQLite whether
/// another connection committed (`PRAGMA data_version`), and it asks again before every fetch
/// and write anyway, so a lost or spurious wake-up delays or costs a look, never loses a change.
final class FileChangeWatcher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "QSData.fileChanges", qos: .utility)
    private var sources: [any DispatchSourceProtocol] = []

    /// Starts watching `path` (the database file). Returns nil where no watching is possible.
    init?(path: String, onChange: @escaping @Sendable () -> Void) {
        #if canImport(Glibc)
        guard let source = Self.inotifySource(path: path, queue: queue, onChange: onChange) else { return nil }
        sources = [source]
        #elseif canImport(Darwin)
        sources = [path, path + "-wal"].compactMap { Self.vnodeSource(path: $0, queue: queue, onChange: onChange) }
        if sources.isEmpty { return nil }
        #else
        return nil
        #endif
    }

    func stop() {
        sources.forEach { $0.cancel() }
        sources = []
    }

    deinit { stop() }

    #if canImport(Glibc)
    private static func inotifySource(path: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) -> (any DispatchSourceProtocol)? {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let names: Set<String> = [url.lastPathComponent, url.lastPathComponent + "-wal"]
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler {
            if Self.drainEvents(descriptor).contains(where: names.contains) { onChange() }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        return source
    }

    /// Reads every waiting inotify event and returns the names of the files they concern.
    private static func drainEvents(_ descriptor: Int32) -> [String] {
        var names: [String] = []
        let bufferSize = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, bufferSize)
            guard count > 0 else { return names }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                if event.len > 0 {
                    let name = buffer.advanced(by: nameStart).assumingMemoryBound(to: CChar.self)
                    names.append(String(cString: name))
                }
                offset = nameStart + Int(event.len)
            }
        }
    }
    #endif

    #if canImport(Darwin)
    private static func vnodeSource(path: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) -> (any DispatchSourceProtocol)? {
        let descriptor = open(path, O_EVTONLY)
        guard descriptor >= 0 else { return nil }
        let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: descriptor, eventMask: [.write, .extend], queue: queue)
        source.setEventHandler(handler: onChange)
        source.setCancelHandler { close(descriptor) }
        source.resume()
        return source
    }
    #endif
}
