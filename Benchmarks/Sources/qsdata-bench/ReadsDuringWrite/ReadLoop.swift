import Foundation

/// What the reads ask for, going round the feeds and the words: a feed's newest articles (a
/// timeline screen) and the best articles for a word (a search field).
struct ReadPlan {
    /// The articles the database holds before the write (``SampleData/article(_:)`` 0 up to this).
    let articles: Int
    /// The articles the write adds (the ones after those).
    var written = 0
    let fetchLimit = 200
    let searchLimit = 20
    /// Each is in about one title in ten.
    static let words = ["tempor", "magna", "lorem", "labore", "aliqua"]

    func feed(_ read: Int) -> String { SampleData.feedID(read) }

    func word(_ read: Int) -> String { Self.words[read % Self.words.count] }

    /// The rows the fetch of `feed(read)` returns when the database holds `articles` articles.
    func fetchRows(_ read: Int, articles: Int) -> Int {
        let feed = read % SampleData.feedCount
        let inFeed = articles / SampleData.feedCount + (feed < articles % SampleData.feedCount ? 1 : 0)
        return min(fetchLimit, inFeed)
    }

    /// Whether the fetch of `feed(read)` returned the rows of a committed state: before the
    /// write or after it (a read issued before the commit may run after it).
    func isCommittedFetch(_ read: Int, rows: Int) -> Bool {
        rows == fetchRows(read, articles: articles) || rows == fetchRows(read, articles: articles + written)
    }

    /// The FTS5 query QSData's `search(_:for:)` makes of one plain word (`SearchQueryText`,
    /// which the last word may begin: search as you type), for GRDB.
    static func ftsQuery(_ word: String) -> String { "\"\(word)\"*" }
}

/// Issues reads from the main actor, a fetch and a search, one after the other, for as long as a
/// write runs.
@MainActor
enum ReadLoop {
    /// The longest a write may take before the loop gives up on it as hung.
    static let hangLimit: Duration = .seconds(300)

    /// Reads until `watch`'s write has finished, each read issued only while it has not:
    /// `fetch(feed, limit)` and `search(word, limit)` return how many rows they got, checked
    /// against `plan`. With `searchFirst` each pair starts with the search (so that the first
    /// read issued, the one an ordinary save makes wait longest, is a search in some rounds).
    static func read(
        during watch: WriteWatch, plan: ReadPlan, searchFirst: Bool,
        fetch: (String, Int) async throws -> Int, search: (String, Int) async throws -> Int
    ) async throws -> ReadLatencies {
        let clock = ContinuousClock()
        var latencies = ReadLatencies()
        var round = 0
        let ticker = MainActorTicker()
        ticker.start()
        func timed(_ kind: String, _ read: () async throws -> Int, isExpected: (Int) -> Bool) async -> Double {
            let start = clock.now
            do {
                let rows = try await read()
                if !isExpected(rows) { latencies.failures.append("\(kind) \(round) returned \(rows) rows") }
            } catch {
                latencies.failures.append("\(kind) \(round) threw \(error)")
            }
            let milliseconds = start.duration(to: clock.now).milliseconds
            if milliseconds > SlowRead.threshold {
                latencies.slowReads.append(SlowRead(
                    kind: kind, milliseconds: milliseconds, issuedAfter: watch.startedAt.duration(to: start).milliseconds))
            }
            return milliseconds
        }
        reading: while true {
            for isSearch in searchFirst ? [true, false] : [false, true] {
                guard !watch.isFinished else { break reading }
                guard watch.startedAt.duration(to: clock.now) < hangLimit else {
                    throw RawSQLiteError(description: "the write has not finished after \(hangLimit): hung?")
                }
                // Timed first, then recorded: `timed` records failures in `latencies` too.
                if isSearch {
                    let latency = await timed("search", { try await search(plan.word(round), plan.searchLimit) },
                                              isExpected: { $0 == plan.searchLimit })
                    latencies.searches.append(latency)
                } else {
                    let latency = await timed("fetch", { try await fetch(plan.feed(round), plan.fetchLimit) },
                                              isExpected: { plan.isCommittedFetch(round, rows: $0) })
                    latencies.fetches.append(latency)
                }
            }
            round += 1
        }
        await ticker.stop()
        latencies.longestMainActorGap = ticker.intervals.max() ?? 0
        return latencies
    }
}
