import Foundation
import QSData
import RSSCore
import Testing

/// A host that answers 429 or 503 with `Retry-After` is left alone until then; request counts
/// are exact.
@MainActor
@Suite struct PoliteRefreshTests {
    /// One download at a time: the first feed's answer decides what happens to the others.
    static let oneAtATime = DownloadLimits(total: 16, perHost: 1)

    /// Subscribes to `a.xml` (which answers `waitRoute`), `b.xml` and `c.xml`, refreshes once at
    /// `clock.now` and expects all three postponed until `until` with `reason`; then refreshes
    /// just before that time (no request) and just after it (all fetched).
    func expectHostPaused(by waitRoute: FixtureFeedServer.Route, until: (Date) -> Date, reason: String) async throws {
        try await RefreshTests().withServer { server, data, _ in
            server.set("a.xml", waitRoute)
            server.set("b.xml", RefreshTests.route(RefreshTests.items("b", 0..<2)))
            server.set("c.xml", RefreshTests.route(RefreshTests.items("c", 0..<3)))
            let urls = ["a.xml", "b.xml", "c.xml"].map(server.url)
            try await RefreshTests().subscribe(urls, in: data)
            let clock = TestClock()
            let end = until(clock.now)
            let refresher = FeedRefresher(data: data, limits: Self.oneAtATime, now: { clock.now })

            let first = await refresher.refresh()
            let postponed = urls.map { PostponedFeed(feed: $0.absoluteString, host: "127.0.0.1", until: end, reason: reason) }
            #expect(first.postponed == postponed)
            #expect(first.failures == [])
            #expect(first.fetched == 0)
            #expect(first.requests == 1)
            #expect(server.requests.map(\.path) == ["/a.xml"])

            server.set("a.xml", RefreshTests.route(RefreshTests.items("a", 0..<1)))
            clock.now = end.addingTimeInterval(-1)
            let early = await refresher.refresh()
            #expect(early.postponed == postponed)
            #expect(early.requests == 0)
            #expect(early.fetched == 0)
            #expect(server.requests.count == 1)

            clock.now = end.addingTimeInterval(1)
            let later = await refresher.refresh()
            #expect(later.postponed == [])
            #expect(later.failures == [])
            #expect(later.fetched == 3)
            #expect(later.requests == 3)
            #expect(later.articles == StoredArticles(new: 6))
            #expect(try await data.store.count(HostPause.self) == 0)
        }
    }

    @Test func a429WithRetryAfterSecondsPostponesTheHostsFeedsUntilThen() async throws {
        try await expectHostPaused(by: .response(status: 429, headers: ["Retry-After": "120"], body: []),
                                   until: { $0.addingTimeInterval(120) }, reason: "HTTP 429 with Retry-After")
    }

    @Test func a503WithRetryAfterAnHTTPDatePostponesTheHostsFeedsUntilThatDate() async throws {
        let inAnHour = TestClock().now.addingTimeInterval(3600)
        try await expectHostPaused(by: .response(status: 503, headers: ["Retry-After": TestClock.httpDate(inAnHour)], body: []),
                                   until: { _ in inAnHour }, reason: "HTTP 503 with Retry-After")
    }

    @Test func aRetryAfterLongerThanADayIsHonouredForADay() async throws {
        let clock = TestClock()
        let nextWeek = clock.now.addingTimeInterval(7 * 86_400)
        #expect(RetryAfter(header: TestClock.httpDate(nextWeek))?.end(after: clock.now) == clock.now.addingTimeInterval(86_400))
        #expect(RetryAfter(header: "604800")?.end(after: clock.now) == clock.now.addingTimeInterval(86_400))
        #expect(RetryAfter(header: "soon") == nil)
        #expect(RetryAfter(header: "-5") == nil)
    }

    @Test func a503WithoutRetryAfterIsAFailureNotAPause() async throws {
        try await RefreshTests().withServer { server, data, _ in
            server.set("down.xml", .status(503))
            try await RefreshTests().subscribe([server.url("down.xml")], in: data)
            let summary = await FeedRefresher(data: data).refresh()
            #expect(summary.failures == [ImportFailure(source: server.url("down.xml").absoluteString, reason: "the server answered HTTP 503")])
            #expect(summary.postponed == [])
            #expect(try await data.store.count(HostPause.self) == 0)
        }
    }

    @Test func aRedirectLoopFailsAfterSixRequestsAndSaysSo() async throws {
        try await RefreshTests().withServer { server, data, _ in
            server.set("loop.xml", .redirect(status: 301, to: "/loop.xml"))
            try await RefreshTests().subscribe([server.url("loop.xml")], in: data)
            let summary = await FeedRefresher(data: data).refresh()
            #expect(summary.failures == [ImportFailure(source: server.url("loop.xml").absoluteString, reason: "more than 5 redirects")])
            #expect(summary.requests == 6)
            #expect(server.requests.count == 6)
            #expect(summary.moved == [])
        }
    }
}

extension PoliteRefreshTests {
    @Test func aRetryAfterThatIsAlreadyOverFailsTheFeedAndPausesNothing() async throws {
        try await RefreshTests().withServer { server, data, _ in
            let clock = TestClock()
            server.set("a.xml", .response(status: 503, headers: ["Retry-After": TestClock.httpDate(clock.now.addingTimeInterval(-60))], body: []))
            server.set("b.xml", RefreshTests.route(RefreshTests.items("b", 0..<2)))
            try await RefreshTests().subscribe([server.url("a.xml"), server.url("b.xml")], in: data)
            let summary = await FeedRefresher(data: data, limits: Self.oneAtATime, now: { clock.now }).refresh()
            #expect(summary.failures == [ImportFailure(source: server.url("a.xml").absoluteString,
                                                       reason: "the server answered HTTP 503 and asked to wait")])
            #expect(summary.postponed == [])
            #expect(summary.fetched == 1)
            #expect(summary.requests == 2)
            #expect(try await data.store.count(HostPause.self) == 0)
        }
    }
}
