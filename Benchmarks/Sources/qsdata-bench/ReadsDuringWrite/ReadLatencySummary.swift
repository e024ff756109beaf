import Foundation

/// Collects each implementation's read latencies, a trial at a time. The harness runs every trial
/// once to warm up before the timed rounds; that first trial is left out.
@MainActor
final class ReadLatencyRecorder {
    private var trials: [String: [ReadLatencies]] = [:]

    func record(_ latencies: ReadLatencies, for implementation: String) {
        trials[implementation, default: []].append(latencies)
    }

    /// The timed rounds' latencies, together.
    func timed(_ implementation: String) -> ReadLatencies {
        (trials[implementation] ?? []).dropFirst().reduce(into: ReadLatencies()) { $0.add($1) }
    }

    /// The trials recorded so far, the warm-up included.
    func trials(of implementation: String) -> Int {
        trials[implementation]?.count ?? 0
    }

    func timedRounds(_ implementation: String) -> Int {
        max(0, (trials[implementation]?.count ?? 0) - 1)
    }
}

/// One implementation's reads during the write, over every timed round: percentiles of each kind
/// of read, and the write's duration.
@MainActor
struct ReadLatencySummary {
    let implementation: String
    let rounds: Int
    let latencies: ReadLatencies

    init(implementation: String, recorder: ReadLatencyRecorder) {
        self.implementation = implementation
        rounds = recorder.timedRounds(implementation)
        latencies = recorder.timed(implementation)
    }

    /// The table of the issue: reads, fetch and search p50 / p99 / max, the write's median.
    static func table(_ summaries: [ReadLatencySummary], plan: ReadPlan, written: Int) -> String {
        let header = [
            "Implementation", "rounds", "reads", "fetch p50", "fetch p99", "fetch max",
            "search p50", "search p99", "search max", "write (median)", "main actor busy (max)", "failed reads", "readers",
        ]
        let rows = summaries.map { summary -> [String] in
            let latencies = summary.latencies
            func figures(_ samples: [Double]) -> [String] {
                samples.isEmpty ? ["–", "–", "–"] : [0.5, 0.99, 1].map { ms(Statistics.percentile(samples, $0)) }
            }
            return [summary.implementation, String(summary.rounds), String(latencies.readCount)]
                + figures(latencies.fetches) + figures(latencies.searches)
                + [ms(Statistics.median(latencies.writes.sorted())), ms(latencies.longestMainActorGap), String(latencies.failures.count),
                   latencies.readersOpened.map(String.init) ?? ""]
        }
        return "\nReads on the main actor while \(written) articles are saved into \(plan.articles) "
            + "(fetch: a feed's \(plan.fetchLimit) newest; search: the best \(plan.searchLimit) titles for a word); "
            + "latency from the call to the result on the main actor:\n\n"
            + ReportPrinter.render(header: header, rows: rows, textColumns: 1)
    }

    /// Results for the run's table and `--report`: fetch latencies, search latencies, write times.
    func results(workload: String, plan: ReadPlan, harness: Harness) -> [BenchResult] {
        func result(_ what: String, _ samples: [Double], note: String) -> BenchResult {
            var result = harness.result(workload, "\(implementation): \(what)", samples, note: note)
            result.p99 = Statistics.percentile(samples, 0.99)
            return result
        }
        let failed = latencies.failures.isEmpty ? "" : "; \(latencies.failures.count) failed reads"
        return [
            result("fetch \(plan.fetchLimit)", latencies.fetches,
                   note: "p99 \(ms(Statistics.percentile(latencies.fetches, 0.99))), \(latencies.fetches.count) fetches in \(rounds) rounds\(failed)"),
            result("search \(plan.searchLimit)", latencies.searches,
                   note: "p99 \(ms(Statistics.percentile(latencies.searches, 0.99))), \(latencies.searches.count) searches in \(rounds) rounds"),
            result("write", latencies.writes, note: "from the call to the commit"),
        ]
    }
}

private func ms(_ value: Double) -> String { ReportPrinter.format(value, "ms") }

/// The host's load average (`/proc/loadavg`), to note beside each figure on a shared host.
enum HostLoad {
    static var description: String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "load average unknown" }
        return "load average " + text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
