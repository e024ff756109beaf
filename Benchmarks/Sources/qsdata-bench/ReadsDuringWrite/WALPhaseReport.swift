import Foundation

/// What one phase of `wal-growth` saw: the `-wal` file's size over time, the reads and the writes.
@MainActor
struct WALPhaseReport {
    let phase: WALPhase
    /// The store's `walSizeLimit` (SQLite's `journal_size_limit`).
    let sizeLimit: Int
    var readLatencies: [Double] = []
    var writes = 0
    var samples: [FileSizeSample] = []
    /// The `-wal` file's size at the end of the phase, the writes stopped and flushed.
    var finalSize = 0
    /// When the long background save was started and when it committed, in the phase that has one.
    var longWrite: (start: ContinuousClock.Instant, commit: ContinuousClock.Instant)?
    var readersOpened = 0
    var failures: [String] = []
    /// The reads slower than ``SlowRead/threshold``: when each was issued, and how long it took.
    var slowReads: [(issued: ContinuousClock.Instant, milliseconds: Double)] = []

    /// The slowest reads, each placed against the long write (started at, committed at) when
    /// the phase has one; nil when no read was slow.
    var slowReadsDescription: String? {
        guard !slowReads.isEmpty else { return nil }
        let slowest = slowReads.sorted { $0.milliseconds > $1.milliseconds }.prefix(5).map { read in
            var text = ms(read.milliseconds)
            if let longWrite {
                text += " issued \(ms(longWrite.start.duration(to: read.issued).milliseconds)) after the long write started"
                    + " (committed after \(ms(longWrite.start.duration(to: longWrite.commit).milliseconds)))"
            }
            return text
        }
        return "\(slowReads.count) reads over \(Int(SlowRead.threshold)) ms; slowest: " + slowest.joined(separator: "; ")
    }

    var largestSize: Int { samples.map(\.bytes).max() ?? 0 }

    /// The first sample at or after `time`.
    func size(at time: ContinuousClock.Instant) -> Int? {
        samples.first { $0.time >= time }?.bytes
    }

    /// How long after the long write's commit the file was first back within the size limit.
    var backWithinLimit: Duration? {
        guard let commit = longWrite?.commit,
              let sample = samples.first(where: { $0.time >= commit && $0.bytes <= sizeLimit })
        else { return nil }
        return commit.duration(to: sample.time)
    }

    /// The largest size before the long write started (the whole phase when there is none).
    var largestBeforeLongWrite: Int {
        let start = longWrite?.start
        return samples.filter { sample in start.map { sample.time < $0 } ?? true }.map(\.bytes).max() ?? 0
    }

    static func table(_ reports: [WALPhaseReport], duration: Duration) -> String {
        let header = [
            "Phase", "reads", "writes", "read p50", "read p99", "read max", "largest -wal", "largest before long write",
            "long write", "-wal at its commit", "back ≤ limit after", "final -wal", "readers",
        ]
        let rows = reports.map { report -> [String] in
            let latencies = report.readLatencies
            let longWrite = report.longWrite
            return [
                report.phase.rawValue, String(latencies.count), String(report.writes),
                ms(Statistics.percentile(latencies, 0.5)), ms(Statistics.percentile(latencies, 0.99)), ms(Statistics.percentile(latencies, 1)),
                mebibytes(report.largestSize), longWrite == nil ? "" : mebibytes(report.largestBeforeLongWrite),
                longWrite.map { ms($0.start.duration(to: $0.commit).milliseconds) } ?? "",
                longWrite.flatMap { report.size(at: $0.commit) }.map(mebibytes) ?? "",
                longWrite == nil ? "" : report.backWithinLimit.map { ms($0.milliseconds) } ?? "not in the phase",
                mebibytes(report.finalSize), String(report.readersOpened),
            ]
        }
        let limit = reports.first.map { mebibytes($0.sizeLimit) } ?? "?"
        return "\nThe -wal file (sampled every 50 ms) while the main actor fetches a feed's newest articles back to back and "
            + "\(SmallWrites.rows) articles are saved every \(ms(SmallWrites.interval.milliseconds)), \(seconds(duration)) a phase; "
            + "size limit \(limit):\n\n"
            + ReportPrinter.render(header: header, rows: rows, textColumns: 1)
    }

    /// Results for the run's table and `--report`: the read latencies and the -wal sizes.
    func results(workload: String, harness: Harness) -> [BenchResult] {
        func size(_ what: String, _ bytes: Int) -> BenchResult {
            let value = Double(bytes) / 1_048_576
            return BenchResult(workload: workload, implementation: "\(phase.rawValue): \(what)", unit: "MiB", repetitions: 1,
                               median: value, min: value, max: value, samples: [value])
        }
        var reads = harness.result(workload, "\(phase.rawValue): fetch \(ReadPlan(articles: 0).fetchLimit)", readLatencies,
                                   note: "\(readLatencies.count) reads, \(writes) writes, \(failures.count) failures")
        reads.p99 = Statistics.percentile(readLatencies, 0.99)
        return [reads, size("largest -wal", largestSize), size("final -wal", finalSize)]
    }
}

private func ms(_ value: Double) -> String { ReportPrinter.format(value, "ms") }

func seconds(_ duration: Duration) -> String { String(format: "%g s", duration.milliseconds / 1_000) }

private func mebibytes(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
