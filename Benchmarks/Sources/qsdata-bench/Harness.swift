import Foundation

/// One row of the results table.
struct BenchResult: Codable {
    let workload: String
    let implementation: String
    let unit: String
    let repetitions: Int
    let median: Double
    let min: Double
    let max: Double
    /// The timed runs in the order they ran: one per round of ``Harness/interleave(_:)``.
    let samples: [Double]
    /// How this implementation compares with raw sqlite3 on the same workload: the median, over
    /// the rounds, of this implementation's time divided by raw's time in the same round.
    var ratioToRaw: Double?
    /// SQL statements per run (transaction control not counted), where the workload reports them.
    var statements: Int?
    var note: String?
    /// The 99th percentile of the samples, where the workload reports it (read latencies).
    var p99: Double?
}

/// Runs workloads: a warm-up, then timed repetitions on a monotonic clock.
@MainActor
final class Harness {
    let repetitions: Int
    /// Rounds are added past `repetitions` until a workload's timed runs add up to this many
    /// seconds (at most `maximumRounds`), so that a short workload gets enough samples.
    let minimumSeconds: Double
    let maximumRounds = 25
    let folder: URL
    let clock = ContinuousClock()
    /// Counts each timed body's instructions when the run is under callgrind (see `instructions.sh`).
    let counter = InstructionCounter()
    /// Pins each round of a workload whose implementations work on one thread at a time to one
    /// core (see ``CorePinning``); nil lets the scheduler place threads.
    let pinning: CorePinning?
    /// The short name of the workload now running (what `--filter` takes), for the counter's labels.
    var workload = ""
    private var fileCounter = 0

    init(repetitions: Int, minimumSeconds: Double, pinning: CorePinning?) throws {
        self.repetitions = repetitions
        self.minimumSeconds = minimumSeconds
        self.pinning = pinning
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("qsdata-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func removeFiles() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A path for a new database file in the benchmark's folder.
    func newDatabasePath(_ name: String) -> String {
        fileCounter += 1
        return folder.appendingPathComponent("\(name)-\(fileCounter).sqlite").path
    }

    /// Deletes a database file with its WAL and shared-memory files.
    func deleteDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// Copies a closed database file to a new path.
    func copyDatabase(_ template: String, name: String) throws -> String {
        let path = newDatabasePath(name)
        try FileManager.default.copyItem(atPath: template, toPath: path)
        return path
    }

    /// One timed run of an implementation: `setup` (untimed), `body` (timed), `teardown` (untimed).
    typealias Trial = () async throws -> Double

    func trial<Context>(
        setup: @escaping () async throws -> Context,
        _ body: @escaping (Context) async throws -> Void,
        teardown: @escaping (Context) async throws -> Void = { _ in }
    ) -> Trial {
        let clock = self.clock
        let counter = self.counter
        return {
            let context = try await setup()
            counter.begin()
            let start = clock.now
            try await body(context)
            let elapsed = start.duration(to: clock.now)
            counter.end()
            try await teardown(context)
            return elapsed.milliseconds
        }
    }

    /// How a workload's implementations use threads, which decides where its rounds run.
    enum Threading {
        /// Each implementation works on one thread at a time (the fetches: QSData's database queue
        /// reads while the main actor waits). With ``pinning``, each round runs on one core.
        case oneAtATime
        /// QSData's main actor and database queue work side by side (the writes, and the
        /// main-actor workload), as they do in an app: threads run on any core.
        case sideBySide
    }

    /// Runs each implementation once to warm up, then rounds in which every implementation runs
    /// once, in rotating order, so that the shared host's load changes affect all of them alike:
    /// `repetitions` rounds, and more while the timed runs add up to less than `minimumSeconds`.
    /// Returns the timed milliseconds by implementation name, in the order of the rounds.
    func interleave(_ trials: [(name: String, trial: Trial)], threading: Threading) async throws -> [String: [Double]] {
        let trials = trials.filter { Self.selectedImplementations?.contains($0.name) ?? true }
        let pinning = threading == .oneAtATime ? pinning : nil
        try pinning?.pin(toCoreForRound: 0)
        for (name, trial) in trials {
            counter.label = "\(workload)|\(name)|warm-up"
            _ = try await trial()
        }
        var samples: [String: [Double]] = [:]
        var timedMilliseconds = 0.0
        var round = 0
        while round < repetitions || (timedMilliseconds < minimumSeconds * 1_000 && round < maximumRounds) {
            try pinning?.pin(toCoreForRound: round)
            for offset in trials.indices {
                let (name, trial) = trials[(offset + round) % trials.count]
                counter.label = "\(workload)|\(name)|\(round + 1)"
                let sample = try await trial()
                samples[name, default: []].append(sample)
                timedMilliseconds += sample
            }
            round += 1
        }
        // A failed trial ends the whole run, so only a finished workload needs its cores back.
        try pinning?.release()
        return samples
    }

    /// The implementations to run, from `BENCH_IMPLEMENTATIONS` (names separated by commas, such
    /// as `QSData`), for profiling one implementation alone; nil runs them all.
    static let selectedImplementations: Set<String>? = ProcessInfo.processInfo.environment["BENCH_IMPLEMENTATIONS"].map { names in
        Set(names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    func result(_ workload: String, _ implementation: String, _ samples: [Double], unit: String = "ms",
                statements: Int? = nil, note: String? = nil) -> BenchResult {
        let sorted = samples.sorted()
        return BenchResult(
            workload: workload, implementation: implementation, unit: unit, repetitions: samples.count,
            median: Statistics.median(sorted), min: sorted.first ?? 0, max: sorted.last ?? 0,
            samples: samples, ratioToRaw: nil, statements: statements, note: note)
    }
}

enum Statistics {
    static func median(_ sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The value below which `fraction` of the samples fall (nearest rank).
    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}

/// A 1 ms ticker on the main actor that records the interval between its ticks: any interval
/// much longer than 1 ms is time the main actor was busy (blocked) and could not tick.
@MainActor
final class MainActorTicker {
    private var task: Task<Void, Never>?
    private(set) var intervals: [Double] = []

    func start() {
        intervals = []
        task = Task { @MainActor [weak self] in
            let clock = ContinuousClock()
            var last = clock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(1))
                let now = clock.now
                self?.intervals.append(last.duration(to: now).milliseconds)
                last = now
            }
        }
    }

    func stop() async {
        task?.cancel()
        await task?.value
        task = nil
    }
}

/// Prints results as a table, grouped by workload, with ratios of medians to raw sqlite3.
enum ReportPrinter {
    static func table(_ results: [BenchResult]) -> String {
        let header = ["Workload", "Implementation", "median", "min", "max", "× raw", "stmts"]
        var rows: [[String]] = []
        for result in results {
            rows.append([
                result.workload,
                result.implementation,
                format(result.median, result.unit),
                format(result.min, result.unit),
                format(result.max, result.unit),
                result.ratioToRaw.map { String(format: "%.2f×", $0) } ?? "",
                result.statements.map(String.init) ?? "",
            ])
        }
        return render(header: header, rows: rows, textColumns: 2)
    }

    /// A Markdown table, its columns padded to line up: the first `textColumns` aligned left, the
    /// others (figures) right.
    static func render(header: [String], rows: [[String]], textColumns: Int) -> String {
        let widths = header.indices.map { column in
            ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column >= textColumns ? padding + cell : cell + padding
            }.joined(separator: " | ") + " |"
        }
        var text = line(header) + "\n"
        text += "|" + widths.enumerated().map { column, width in
            column >= textColumns ? String(repeating: "-", count: width + 1) + ":" : ":" + String(repeating: "-", count: width + 1)
        }.joined(separator: "|") + "|\n"
        for row in rows { text += line(row) + "\n" }
        return text
    }

    static func format(_ value: Double, _ unit: String) -> String {
        let digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
        return String(format: "%.\(digits)f \(unit)", value)
    }
}

/// Sets each result's ratio to the raw sqlite3 result of the same workload: the median of the
/// ratios of the runs in the same round. A round runs every implementation back to back, so a
/// slow spell of a shared host slows both sides of a ratio, where it would move one median alone.
/// Results whose runs do not pair up with raw's (another count) get the ratio of the medians.
func addRatios(_ results: [BenchResult], rawName: String) -> [BenchResult] {
    let raws = Dictionary(
        results.filter { $0.implementation == rawName }.map { ($0.workload, $0) },
        uniquingKeysWith: { first, _ in first })
    return results.map { result in
        var result = result
        guard let raw = raws[result.workload], raw.median > 0, result.unit == "ms" else { return result }
        if result.samples.count == raw.samples.count, raw.samples.allSatisfy({ $0 > 0 }) {
            let ratios = zip(result.samples, raw.samples).map { $0 / $1 }
            result.ratioToRaw = Statistics.median(ratios.sorted())
        } else {
            result.ratioToRaw = result.median / raw.median
        }
        return result
    }
}
