@testable import DeadlineHTTP
import Foundation
import QSData
@testable import RSSCore
import Synchronization
import Testing

/// An import that finds no host names (offline) skips the rest of its downloads at once, saying
/// why; one name found means every source is tried. The network is stood in for, so nothing here
/// depends on how long lookups take.
@MainActor
@Suite struct OfflineImportTests {
    /// A network on which host names have no address, except those in `reachable`, whose
    /// servers answer every request with an empty feed; it counts the requests it was sent.
    final class StandInNetwork: Sendable {
        let reachable: Set<String>
        private let asked = Mutex<[String]>([])

        init(reachable: Set<String> = []) {
            self.reachable = reachable
        }

        /// The hosts asked for, in order.
        var hostsAsked: [String] { asked.withLock { $0 } }

        /// A fetcher on this network whose time limit never runs out.
        var fetcher: FeedFetcher {
            FeedFetcher(timeout: .seconds(60), maximumBytes: 1_000_000, maximumRedirects: 5, sleep: ManualTimers().sleep) {
                request throws(HTTPTransferError) in
                let host = request.url.host ?? ""
                self.asked.withLock { $0.append(host) }
                guard self.reachable.contains(host) else { throw .hostNotFound(host: host) }
                return DeadlineHTTPResponse(statusCode: 200, headers: [], body: Data(TestSupport.rss(title: host, items: []).utf8))
            }
        }

        var loader: FeedLoader { FeedLoader(fetcher: fetcher) }
    }

    /// `count` feeds on hosts of their own, `host0.example` onwards.
    static func remoteFeeds(_ count: Int) -> [FeedLocation] {
        (0..<count).map { .remote(URL(string: "https://host\($0).example/feed.xml")!) }
    }

    /// One download at a time, so the order of outcomes is the order of the sources.
    static let oneAtATime = DownloadLimits(total: 1, perHost: 1)

    @Test func afterEightLookupsFailWithNoNameFoundTheRemainingDownloadsAreSkippedAtOnce() async throws {
        try await TestSupport.withData { data, folder in
            let network = StandInNetwork()
            let file = try TestSupport.write(TestSupport.rss(items: TestSupport.items(2)), named: "local.xml", in: folder)
            let importer = FeedImporter(data: data, loader: network.loader, limits: Self.oneAtATime)
            let summary = await importer.importFeeds(from: Self.remoteFeeds(20) + [.file(file)])

            #expect(network.hostsAsked == (0..<8).map { "host\($0).example" })
            #expect(summary.failures.count == 20)
            #expect(summary.failures.prefix(8).map(\.reason) == (0..<8).map { "no address found for host\($0).example (offline, or no such host)" })
            #expect(Array(summary.failures.dropFirst(8)) == (8..<20).map {
                ImportFailure(source: "https://host\($0).example/feed.xml",
                              reason: "not tried: the first 8 host names looked up had no address; this machine seems to be offline")
            })
            // Files don't need the network.
            #expect(summary.feeds == 1)
            #expect(summary.newArticles == 2)
        }
    }

    @Test func oneNameFoundFirstMeansEverySourceIsTried() async throws {
        try await TestSupport.withData { data, _ in
            let network = StandInNetwork(reachable: ["host0.example"])
            let importer = FeedImporter(data: data, loader: network.loader, limits: Self.oneAtATime)
            let summary = await importer.importFeeds(from: Self.remoteFeeds(20))

            #expect(network.hostsAsked.count == 20)
            #expect(summary.feeds == 1)
            #expect(summary.failures.count == 19)
            #expect(summary.failures.allSatisfy { $0.reason.hasPrefix("no address found for ") })
        }
    }

    @Test func aRefreshThatFindsNoHostNamesFailsTheRemainingFeedsAtOnce() async throws {
        try await TestSupport.withData { data, _ in
            let feeds = (0..<12).map { Feed(uniqueID: "https://host\($0).example/feed.xml") }
            try data.store.save(feeds)
            let network = StandInNetwork()
            let refresher = FeedRefresher(data: data, fetcher: network.fetcher, limits: Self.oneAtATime)
            let summary = await refresher.refresh()

            #expect(network.hostsAsked.count == 8)
            #expect(summary.requests == 8)
            #expect(summary.failures.count == 12)
            #expect(summary.failures.filter { $0.reason.hasPrefix("not tried: the first 8 host names") }.count == 4)
        }
    }

    @Test func theDetectorNeedsItsThresholdOfFailedLookupsAndNoNameFound() {
        var detector = OfflineDetector(threshold: 3)
        detector.record(lookupFailed: true)
        detector.record(lookupFailed: true)
        #expect(!detector.seemsOffline)
        detector.record(lookupFailed: true)
        #expect(detector.seemsOffline)

        var online = OfflineDetector(threshold: 3)
        online.record(lookupFailed: true)
        online.record(lookupFailed: false)
        for _ in 0..<10 { online.record(lookupFailed: true) }
        #expect(!online.seemsOffline)
    }

    @Test(.enabled(if: TestSupport.referenceFeedsAvailable, "../shared/reference/feeds is not present"))
    func theReferenceFolderImportsItsFilesAndReportsEverySubscriptionItCouldNotReach() async throws {
        try await TestSupport.withData { data, _ in
            let network = StandInNetwork()
            let importer = FeedImporter(data: data, loader: network.loader)
            let summary = await importer.importFeeds(from: [.file(TestSupport.referenceFeeds)])
            let remote = summary.failures.filter { $0.source.hasPrefix("http") }
            #expect(remote.count == 207)
            #expect(remote.filter { $0.reason.hasPrefix("not tried: ") }.count >= 207 - DownloadLimits.standard.total - OfflineDetector.standardThreshold)
            #expect(network.hostsAsked.count == 207 - remote.filter { $0.reason.hasPrefix("not tried: ") }.count)
        }
    }
}
