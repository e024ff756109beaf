import ArgumentParser
import CSQLiteBench
import Foundation

/// The entry point. An `async` main parks the main thread in `dispatch_main()` on Linux, which
/// valgrind 3.19 cannot run (it crashes in itself); under valgrind the main actor is served by
/// the main thread's run loop instead. Otherwise this is what an `async` main does.
@main
enum Entry {
    static func main() {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == BusyCore.spinArgument, let parent = pid_t(arguments[2]) {
            BusyCore.spinForever(parent: parent)
        }
        Task { @MainActor in
            await QSDataBench.main()
            exit(0)
        }
        if csqlitebench_running_on_valgrind() != 0 {
            while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
        }
        dispatchMain()
    }
}

struct QSDataBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qsdata-bench",
        abstract: "Times QSData against raw sqlite3 and GRDB on the same work.",
        discussion: """
            Workloads: \(Workloads.names.joined(separator: ", ")). Each runs once to warm up, then \
            in rounds, each implementation once per round: --repetitions rounds, and more while \
            the timed runs add up to less than --minimum-seconds. The table shows median, min and \
            max, and × raw: the median over the rounds of the run's time divided by raw sqlite3's \
            in the same round.
            """)

    @Option(help: "Run only this workload (timeline, relationships, save, mark-read, delete, main-actor, byid, saves, memory, reads-during-write, wal-growth …), or those whose name contains this text; repeatable.")
    var filter: [String] = []

    @Option(help: "Multiply every workload size by this factor (0.1 for a quick run).")
    var scale: Double = 1

    @Option(help: "Timed repetitions per workload, after one warm-up run (at least 5 for a report).")
    var repetitions: Int = 5

    @Option(help: "Add rounds past --repetitions until a workload's timed runs add up to this many seconds (at most 25 rounds; 0 for exactly --repetitions).")
    var minimumSeconds: Double = 2

    @Flag(inversion: .prefixedNo, help: "Run each round of a fetch workload on one core, the next round on the next core, so that every implementation in a round runs on the same core (write workloads never are: QSData's main actor and database queue work side by side there).")
    var oneCorePerRound = true

    @Flag(help: "Keep one core busy for the whole run with another process: this binary again, spinning on integer arithmetic (no memory traffic, no system calls), unpinned, at normal priority.")
    var busyCore = false

    @Option(help: "How long each phase of wal-growth reads and writes, in seconds.")
    var walSeconds: Double = 60

    @Option(help: ArgumentHelp("Also write the results, with every timed run in order, as JSON to this file.", valueName: "path"))
    var report: String?

    func validate() throws {
        guard scale > 0 else { throw ValidationError("--scale must be positive") }
        guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1") }
        guard minimumSeconds >= 0 else { throw ValidationError("--minimum-seconds must not be negative") }
        guard walSeconds > 0 else { throw ValidationError("--wal-seconds must be positive") }
    }

    func run() async throws {
        let busy = busyCore ? try BusyCore.start() : nil
        defer { busy?.terminate() }
        try await BenchmarkRun(filter: filter, scale: scale, repetitions: repetitions, minimumSeconds: minimumSeconds,
                           oneCorePerRound: oneCorePerRound, busyCore: busyCore,
                           walGrowthDuration: .milliseconds(Int64(walSeconds * 1_000)), reportPath: report).run()
    }
}

/// The whole run, on the main actor (QSData's store lives there).
@MainActor
struct BenchmarkRun {
    let filter: [String]
    let scale: Double
    let repetitions: Int
    let minimumSeconds: Double
    let oneCorePerRound: Bool
    /// Whether another process keeps one core busy (`--busy-core`).
    let busyCore: Bool
    /// How long each phase of `wal-growth` lasts (`--wal-seconds`).
    let walGrowthDuration: Duration
    /// Where `--report` writes the results as JSON.
    let reportPath: String?

    #if DEBUG
    static let buildMode = "debug"
    #else
    static let buildMode = "release"
    #endif

    func run() async throws {
        // A filter that is a workload's exact short name selects that workload alone (the
        // plain save, say, and not also the save with a text index, whose name starts the same);
        // any other filter selects every workload whose short name contains it.
        let names = Workloads.names.filter { name in
            filter.isEmpty || filter.contains { wanted in
                name.lowercased() == wanted.lowercased()
                    || (!Workloads.names.contains { $0.lowercased() == wanted.lowercased() } && name.lowercased().contains(wanted.lowercased()))
            }
        }
        let harness = try Harness(repetitions: repetitions, minimumSeconds: minimumSeconds,
                                  pinning: oneCorePerRound ? CorePinning() : nil)
        defer { harness.removeFiles() }
        let workloads = Workloads(harness: harness, sizes: Sizes(scale: scale), walGrowthDuration: walGrowthDuration)
        if harness.counter.isActive && csqlitebench_has_callgrind() == 0 {
            print("qsdata-bench: running under valgrind, but built without valgrind's headers: no instruction counts (install valgrind and rebuild)")
        }
        print("qsdata-bench: SQLite \(RawDatabase.version), \(Self.buildMode) build, \(ProcessInfo.processInfo.activeProcessorCount) cores, "
              + "scale \(scale), 1 warm-up + \(repetitions) timed repetitions or more (until \(minimumSeconds) s), "
              + (oneCorePerRound ? "each fetch round on one core, " : "threads on any core, ")
              + (busyCore ? "one core kept busy by another process (--busy-core), " : "") + "journal_mode=WAL synchronous=NORMAL temp_store=MEMORY")
        var results: [BenchResult] = []
        for name in names {
            print("running \(name)…")
            fflush(nil)
            harness.workload = name
            results += try await workloads.run(name)
        }
        results = addRatios(results, rawName: Impl.raw)
        print()
        print(ReportPrinter.table(results))
        for result in results {
            if let note = result.note { print("- \(result.workload) / \(result.implementation): \(note)") }
        }
        if let reportPath {
            let report = Report(
                sqliteVersion: RawDatabase.version, buildMode: Self.buildMode,
                cores: ProcessInfo.processInfo.activeProcessorCount, scale: scale, repetitions: repetitions, oneCorePerRound: oneCorePerRound,
                busyCore: busyCore, date: ISO8601DateFormatter().string(from: Date()), results: results)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(report).write(to: URL(fileURLWithPath: reportPath))
            print("wrote \(reportPath)")
        }
    }
}

struct Report: Codable {
    let sqliteVersion: String
    let buildMode: String
    let cores: Int
    let scale: Double
    let repetitions: Int
    /// Whether each round of a fetch workload ran on one core (`--one-core-per-round`, the default).
    let oneCorePerRound: Bool
    /// Whether another process kept one core busy (`--busy-core`).
    let busyCore: Bool
    let date: String
    let results: [BenchResult]
}
