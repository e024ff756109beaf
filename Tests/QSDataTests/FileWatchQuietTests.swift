#if canImport(Glibc)
import Foundation
import Glibc
@testable import QSData
import Testing
import TestSupport

/// The folder watch that hears other writers' commits is held quiet while a store's own write
/// transaction runs: the kernel makes no event for each page the write appends, and the end of
/// the quiet wakes every watcher of the folder once, so a commit made meanwhile is not missed.
///
/// These tests use a hub of their own whose events nothing reads but the test, so what the kernel
/// queued is read exactly.
@Suite struct FileWatchQuietTests {
    @Test func aQuietFolderQueuesNoEventForWritesAndHearsThemAgainAfter() async throws {
        let hub = try #require(InotifyHub(readsEvents: false))
        let folder = try Self.makeFolder(with: ["notes.sqlite", "notes.sqlite-wal"])
        let wakes = WakeCounter()
        let id = try #require(hub.watch(path: folder + "/notes.sqlite") { wakes.wake() })
        Self.append(to: folder + "/notes.sqlite-wal", times: 3)
        #expect(hub.drainEvents().map(\.name).contains("notes.sqlite-wal"))

        let folderWatch = try #require(hub.quiet(id))
        Self.append(to: folder + "/notes.sqlite-wal", times: 200)
        Self.append(to: folder + "/notes.sqlite", times: 5)
        #expect(hub.drainEvents().isEmpty)

        hub.endQuiet(folderWatch)
        try await wakes.waitFor(count: 1)
        Self.append(to: folder + "/notes.sqlite-wal", times: 1)
        #expect(Set(hub.drainEvents().map(\.name)) == ["notes.sqlite-wal"])
        hub.stopWatching(id)
    }

    @Test func aFolderStaysQuietUntilTheLastOfItsWritesEndsThenWakesEveryWatcher() async throws {
        let hub = try #require(InotifyHub(readsEvents: false))
        let folder = try Self.makeFolder(with: ["notes.sqlite-wal", "tasks.sqlite-wal"])
        let notesWakes = WakeCounter()
        let tasksWakes = WakeCounter()
        let notes = try #require(hub.watch(path: folder + "/notes.sqlite") { notesWakes.wake() })
        let tasks = try #require(hub.watch(path: folder + "/tasks.sqlite") { tasksWakes.wake() })

        let first = try #require(hub.quiet(notes))
        let second = try #require(hub.quiet(tasks))
        #expect(first == second, "one watch per folder")
        hub.endQuiet(first)
        // The tasks store is still writing: its folder stays quiet, and no one is woken yet.
        Self.append(to: folder + "/tasks.sqlite-wal", times: 50)
        #expect(hub.drainEvents().isEmpty)

        hub.endQuiet(second)
        try await notesWakes.waitFor(count: 1)
        try await tasksWakes.waitFor(count: 1)
        Self.append(to: folder + "/tasks.sqlite-wal", times: 1)
        #expect(Set(hub.drainEvents().map(\.name)) == ["tasks.sqlite-wal"])
        hub.stopWatching(notes)
        hub.stopWatching(tasks)
    }

    @Test func aWatcherStoppedDuringItsQuietLeavesTheFolderHeardOnceItEnds() async throws {
        let hub = try #require(InotifyHub(readsEvents: false))
        let folder = try Self.makeFolder(with: ["tasks.sqlite-wal"])
        let otherWakes = WakeCounter()
        let closing = try #require(hub.watch(path: folder + "/notes.sqlite") {})
        let other = try #require(hub.watch(path: folder + "/tasks.sqlite") { otherWakes.wake() })

        let folderWatch = try #require(hub.quiet(closing))
        hub.stopWatching(closing)
        #expect(hub.quiet(closing) == nil, "a stopped watcher is not held quiet")
        hub.endQuiet(folderWatch)
        try await otherWakes.waitFor(count: 1)
        Self.append(to: folder + "/tasks.sqlite-wal", times: 1)
        #expect(Set(hub.drainEvents().map(\.name)) == ["tasks.sqlite-wal"])
        hub.stopWatching(other)
    }

    /// A new folder with these files in it, made before any watch so that making them is no event.
    private static func makeFolder(with files: [String]) throws -> String {
        let folder = TestRunFolder.newFolder("qsdata-watch")
        for file in files { append(to: folder.path + "/" + file, times: 1) }
        return folder.path
    }

    /// Appends a byte to the file `times` times, one `write` each, as SQLite appends frames.
    private static func append(to path: String, times: Int) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        precondition(descriptor >= 0, "could not open \(path)")
        defer { close(descriptor) }
        var byte: UInt8 = 1
        for _ in 0..<times { _ = write(descriptor, &byte, 1) }
    }
}

/// Counts a watcher's wake-ups, and waits for them with a time limit.
private final class WakeCounter: Sendable {
    private let count = LockedState(0)

    func wake() { count.withLock { $0 += 1 } }

    /// Returns once `count` wake-ups came; fails after 10 seconds.
    func waitFor(count expected: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while count.withLock({ $0 }) < expected {
            guard ContinuousClock.now < deadline else {
                Issue.record("waited 10 s for \(expected) wake-ups, got \(count.withLock { $0 })")
                return
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
#endif
