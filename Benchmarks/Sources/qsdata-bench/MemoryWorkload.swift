import CSQLiteBench
import Foundation
import QSData

/// The memory workload: what 100,000 fetched timeline notes cost to hold, per implementation.
///
/// Each implementation fetches the notes and keeps them while the heap in use (glibc's
/// `mallinfo2`, every arena) and the process's peak resident memory are read; the peak is reset
/// (`/proc/self/clear_refs`) before each fetch. Bytes per object = heap growth / notes held, so
/// it includes whatever the implementation keeps for each object besides the object itself
/// (QSData's cache entry and row snapshot for uniqued classes; a snapshot without the row's
/// values for classes that mark their changes). Peak resident memory compares
/// only between processes that ran one implementation each: set `MEMORY_IMPLEMENTATION` to part
/// of an implementation's name to run only that one.
extension Workloads {
    func memory() async throws -> [BenchResult] {
        let count = sizes.timelineNotes
        let workload = "hold \(count) fetched timeline notes"
        let path = try notesTemplate(count)
        let raw = try RawDatabase(path: path)
        let dbQueue = try GRDBBench.open(path)
        let store = try await BenchModel.openStore(path, timelineObjects: true)
        // Each result stays in its own array, held in a box (an `[Any]` would box every struct).
        let fetches: [(String, () async throws -> Held)] = [
            ("raw sqlite3 structs", { Held(try RawNotes.fetchTimeline(raw)) }),
            ("GRDB records", { Held(try GRDBBench.fetchTimelineRecords(dbQueue)) }),
            ("QSData structs", { Held(try await store.fetchAll(VSTimelineNote.self)) }),
            ("QSData uniqued classes", { Held(try await store.fetchAll(VSTimelineNoteObject.self)) }),
            ("QSData uniqued classes marking changes", { Held(try await store.fetchAll(VSTimelineNoteMarkingObject.self)) }),
        ]
        let only = ProcessInfo.processInfo.environment["MEMORY_IMPLEMENTATION"]
        var results: [BenchResult] = []
        for (name, fetch) in fetches where only.map({ name.localizedCaseInsensitiveContains($0) }) ?? true {
            _ = try await fetch()  // warm-up: statements prepared, caches sized, then released
            _ = try store.cachedObjectCount(of: VSTimelineNoteObject.self)  // drops the warm-up's dead entries
            _ = try store.cachedObjectCount(of: VSTimelineNoteMarkingObject.self)
            try await store.flush()  // and the database queue's, with their row snapshots
            let heapBefore = csqlitebench_heap_in_use()
            let residentBefore = ProcessMemory.resident()
            ProcessMemory.resetPeak()
            let held = try await fetch()
            let heapAfter = csqlitebench_heap_in_use()
            let peak = ProcessMemory.peakResident()
            try check(held.count == count, "\(name) fetched \(held.count)")
            let perObject = Double(Int(heapAfter) - Int(heapBefore)) / Double(count)
            results.append(BenchResult(
                workload: workload, implementation: name, unit: "B/object", repetitions: 1,
                median: perObject, min: perObject, max: perObject, samples: [perObject],
                note: String(format: "peak resident %.1f MB (%.1f MB above before the fetch)",
                             Double(peak) / 1e6, Double(peak - residentBefore) / 1e6)))
            withExtendedLifetime(held) {}
        }
        try await store.close()
        return results
    }
}

/// Fetched objects kept alive while memory is read.
final class Held {
    let objects: Any
    let count: Int

    init<Object>(_ objects: [Object]) {
        self.objects = objects
        count = objects.count
    }
}

/// The process's resident memory, from /proc/self.
enum ProcessMemory {
    /// Current resident bytes (VmRSS).
    static func resident() -> Int { statusField("VmRSS:") }

    /// Peak resident bytes since the last reset (VmHWM).
    static func peakResident() -> Int { statusField("VmHWM:") }

    /// Makes the peak the current resident size (Linux: "5" to clear_refs).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    private static func statusField(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) })
        else { return 0 }
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }
}
