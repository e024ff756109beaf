import Foundation

/// A write running while the main actor reads: when it started, when it finished, and how.
@MainActor
final class WriteWatch {
    let startedAt: ContinuousClock.Instant
    private(set) var finishedAt: ContinuousClock.Instant?
    private(set) var failure: (any Error)?
    private var task: Task<Void, Never>?

    /// Watches a write started at `startedAt` (now by default): `waitForWrite` returns when it has
    /// committed (or throws when it failed), such as `{ try await write.committed() }`.
    init(startedAt: ContinuousClock.Instant = .now, _ waitForWrite: @escaping @MainActor @Sendable () async throws -> Void) {
        self.startedAt = startedAt
        task = Task { @MainActor [weak self] in
            do {
                try await waitForWrite()
            } catch {
                self?.failure = error
            }
            self?.finishedAt = ContinuousClock.now
        }
    }

    var isFinished: Bool { finishedAt != nil }

    /// Waits for the write; throws its failure.
    func finish() async throws {
        await task?.value
        if let failure { throw failure }
    }

    /// From the start of the watch to the write's commit, in milliseconds (0 before it).
    var milliseconds: Double {
        finishedAt.map { startedAt.duration(to: $0).milliseconds } ?? 0
    }
}

/// What the reads issued during one write saw: each one's latency, from the call on the main
/// actor to its result back on the main actor, and what went wrong.
struct ReadLatencies {
    var fetches: [Double] = []
    var searches: [Double] = []
    var writes: [Double] = []
    /// Reads that threw or returned the wrong number of rows, described.
    var failures: [String] = []
    /// The most reader connections the store had open after a write (QSData only).
    var readersOpened: Int?
    /// The reads slower than ``SlowRead/threshold``, with when they were issued.
    var slowReads: [SlowRead] = []
    /// The longest the main actor was busy while the reads ran (the longest interval between
    /// the ticks of a 1 ms ``MainActorTicker``): what part of a slow read was the main actor's.
    var longestMainActorGap = 0.0

    /// Records the duration of the write the reads ran beside.
    mutating func noteWrite(milliseconds: Double) {
        writes = [milliseconds]
        for index in slowReads.indices { slowReads[index].writeMilliseconds = milliseconds }
    }

    var readCount: Int { fetches.count + searches.count }

    mutating func add(_ other: ReadLatencies) {
        fetches += other.fetches
        searches += other.searches
        writes += other.writes
        failures += other.failures
        if let opened = other.readersOpened { readersOpened = max(readersOpened ?? 0, opened) }
        slowReads += other.slowReads
        longestMainActorGap = max(longestMainActorGap, other.longestMainActorGap)
    }
}

/// A read slower than the issue's goal for the 99th percentile, and when it was issued.
struct SlowRead: CustomStringConvertible {
    static let threshold = 50.0

    let kind: String
    let milliseconds: Double
    /// From the start of the write to the read's call.
    let issuedAfter: Double
    var writeMilliseconds = 0.0

    var description: String {
        "\(kind) \(ReportPrinter.format(milliseconds, "ms")) issued \(ReportPrinter.format(issuedAfter, "ms")) "
            + "into a \(ReportPrinter.format(writeMilliseconds, "ms")) write"
    }
}
