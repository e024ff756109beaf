import Foundation
import Testing
import FeedParser

/// The shared reference feeds live outside the package (`../shared/reference/feeds`
/// relative to the repository root). These tests are skipped when it is absent.
enum ReferenceFeeds {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FeedParserTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // Examples
        .deletingLastPathComponent()  // repository root
        .deletingLastPathComponent()
        .appendingPathComponent("shared/reference/feeds")

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("Subs.opml").path)
    }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    static func parse(_ name: String) throws -> ParsedFeed {
        try FeedParser.parse(data: data(name), url: feedURL(name))
    }

    static func feedURL(_ name: String) -> URL {
        URL(string: "https://feeds.example.org/\(name)")!
    }
}

/// `Date` from an RFC 3339 string in test expectations, parsed independently
/// of the library with Foundation's formatter.
func date(_ iso: String) -> Date {
    ISO8601DateFormatter().date(from: iso)!
}

@Suite(.enabled(if: ReferenceFeeds.isAvailable, "reference feeds directory not present"))
struct ReferenceFeedTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        let file: String
        let format: FeedFormat
        let title: String
        let count: Int
        /// (index, title, link, published date) of items checked by hand.
        let items: [(Int, String?, String, String)]
        var testDescription: String { file }
    }

    static let expectations: [Expectation] = [
        Expectation(file: "KatieFloyd.rss", format: .rss, title: "Katie Floyd", count: 20, items: [
            (0, "Special Mac Power Users for Relay FM Members", "http://tracking.feedpress.it/link/980/4243452",
             "2016-08-25T22:20:00Z"),
            (19, "Mac Power Users #330: I'm not familiar with \"Wookieepedia\"",
             "http://tracking.feedpress.it/link/980/3859869", "2016-07-12T23:45:00Z"),
        ]),
        Expectation(file: "OneFootTsunami.atom", format: .atom, title: "One Foot Tsunami", count: 25, items: [
            (0, "Link: Pillow Fight Leaves 24 Concussed",
             "http://www.nytimes.com/2015/09/05/us/at-west-point-annual-pillow-fight-becomes-weaponized.html?mwrsm=Email&_r=1&pagewanted=all",
             "2015-09-08T14:21:41Z"),
            (24, "Planes, “Planes”, and Automated Fare Pricing",
             "http://onefoottsunami.com/2015/08/05/planes-planes-and-automated-fare-pricing/", "2015-08-05T15:50:23Z"),
        ]),
        Expectation(file: "aktuality.rss", format: .rss, title: "Aktuality.sk - aktuálne spravodajstvo", count: 30, items: [
            (0, "Analytici Goldman Sachs zvýšili odhad rastu ekonomiky USA",
             "https://www.aktuality.sk/clanok/856577/analytici-goldman-sachs-zvysili-odhad-rastu-ekonomiky-usa/",
             "2021-01-17T19:27:00+01:00"),
            (29, "Poslanci OĽANO navrhujú individuálne vzdelávanie umožniť i na druhom stupni",
             "https://www.aktuality.sk/clanok/856497/nrsr-poslanci-olano-navrhuju-individualne-vzdelavanie-umoznit-i-na-druhom-stupni/",
             "2021-01-17T10:45:00+01:00"),
        ]),
        Expectation(file: "bio.rdf", format: .rdf, title: "bioRxiv Subject Collection: Plant Biology", count: 30, items: [
            (0, "Wheat inositol pyrophosphate kinase (TaVIH2-3B) interacts with Fasciclin-like arabinogalactan (FLA6) protein and alters the plant cell-wall composition",
             "http://biorxiv.org/cgi/content/short/743294v1?rss=1", "2019-08-27T00:00:00Z"),
            (29, "Cell-surface receptors enable perception of extracellular cytokinins",
             "http://biorxiv.org/cgi/content/short/726125v1?rss=1", "2019-08-14T00:00:00Z"),
        ]),
        Expectation(file: "donthitsave.xml", format: .rss, title: "Don't Hit Save", count: 10, items: [
            (0, "Skipping Around", "https://donthitsave.com/comic/2019/05/24/skipping-around", "2019-05-24T00:00:00-07:00"),
            (9, "Costs", "https://donthitsave.com/comic/2019/03/22/costs", "2019-03-22T00:00:00-07:00"),
        ]),
        Expectation(file: "inessential.json", format: .jsonFeed, title: "inessential.com", count: 20, items: [
            (0, "James Dempsey and the Breakpoints Benefit App Camp for Girls",
             "http://inessential.com/2017/06/02/james_dempsey_and_the_breakpoints_benefi", "2017-06-02T22:05:47-07:00"),
            (19, "My CocoaConf Yosemite 2017 Talk",
             "http://inessential.com/2017/03/25/my_cocoaconf_yosemite_2017_talk", "2017-03-25T11:55:21-07:00"),
        ]),
        Expectation(file: "kc0011.rss", format: .rss, title: "投资资讯网交易在线--流通纪念币最新20篇论坛主题-全文", count: 20, items: [
            (0, "建国35周年纪念，华表，和平鸽", "http://www.kc0011.net/dispbbs.asp?BoardID=10&ID=25164257&Page=1",
             "2020-01-10T14:33:00Z"),
            (1, "出南京泰山5盒，原盒看图", "http://www.kc0011.net/dispbbs.asp?BoardID=10&ID=25164269&Page=1",
             "2020-01-10T14:28:00Z"),
            (19, "世博五卷", "http://www.kc0011.net/dispbbs.asp?BoardID=10&ID=25164080&Page=1", "2020-01-10T14:03:00Z"),
        ]),
        Expectation(file: "manton.rss", format: .rss, title: "Manton Reece", count: 10, items: [
            (0, nil, "http://www.manton.org/2015/09/3071.html", "2015-09-25T14:26:40Z"),
            (9, nil, "http://www.manton.org/2015/09/3046.html", "2015-09-18T13:43:21Z"),
        ]),
        Expectation(file: "monkeydom.rss", format: .rss, title: "cocoa-dom", count: 13, items: [
            (0, "TCMPortMapper 2018 Edition", "https://github.com/monkeydom/TCMPortMapper", "2018-09-06T13:27:00Z"),
            (12, "Games, iCloud and Game Center",
             "https://coding.monkeydom.de/posts/2012/04/17/games-icloud-and-gamecenter", "2012-04-17T11:31:00Z"),
        ]),
        Expectation(file: "pappacoda.atom", format: .atom, title: "Andrea Pappacoda - Blog", count: 3, items: [
            (0, "Le favicon non sono difficili", "https://andrea.pappacoda.it/blog/favicon_2026/",
             "2026-05-24T13:02:30+02:00"),
            (1, "Una nuova primitiva di creazione dei processi per sistemi Unix",
             "https://andrea.pappacoda.it/blog/tesi.pdf", "2024-12-12T15:30:00+01:00"),
        ]),
        Expectation(file: "phpxml.rss", format: .rss, title: "www.fcutrecht.net voetbalnieuws", count: 20, items: [
            (0, "Serdar Gözübüyük scheidsrechter bij FC Twente - FC Utrecht",
             "https://www.fcutrecht.net/nieuws/serdar-g-z-b-y-k-scheidsrechter-bij-fc-twente-fc-utrecht~8805",
             "2021-09-06T12:17:00+02:00"),
            (19, "Tijdstip FC Utrecht - Feyenoord blijft op 12.15 uur",
             "https://www.fcutrecht.net/nieuws/tijdstip-fc-utrecht-feyenoord-blijft-op-12-15-uur~8786",
             "2021-08-27T09:25:00+02:00"),
        ]),
        Expectation(file: "rubenerd.rss", format: .rss, title: "Rubenerd", count: 10, items: [
            (0, "The great Commodore/Atari engineer swap", "https://rubenerd.com/the-commodore-atari-engineer-swap/",
             "2023-01-11T08:53:01+11:00"),
            (9, "Your own little standard library", "https://rubenerd.com/your-own-little-standard-library/",
             "2023-01-07T11:54:25+10:00"),
        ]),
        Expectation(file: "shopify-namespace.rss", format: .rss, title: "Test Shop", count: 1, items: [
            (0, "Real Product Title", "https://example.com/products/1", ""),
        ]),
        Expectation(file: "theomnishow.rss", format: .rss, title: "The Omni Show", count: 4, items: [
            (0, "Andrea McVittie, User Experience Designer",
             "https://theomnishow.omnigroup.com/episode/andrea-mcvittie-user-experience-designer/", "2017-12-06T14:00:00Z"),
            (3, "Kristina Sontag, Software Test Manager",
             "https://theomnishow.omnigroup.com/episode/kristina-sontag-software-test-manager/", "2017-11-01T16:00:00Z"),
        ]),
    ]

    @Test(arguments: expectations)
    func parsesReferenceFeed(_ expected: Expectation) throws {
        let feed = try ReferenceFeeds.parse(expected.file)
        #expect(feed.format == expected.format)
        #expect(feed.title == expected.title)
        #expect(feed.items.count == expected.count)
        for (index, title, link, published) in expected.items {
            let item = try #require(feed.items.count > index ? feed.items[index] : nil)
            #expect(item.title == title)
            #expect(item.url?.absoluteString == link)
            #expect(item.datePublished == (published.isEmpty ? nil : date(published)))
            #expect(item.uniqueID.count == 16)
        }
        #expect(Set(feed.items.map(\.uniqueID)).count == feed.items.count, "IDs are unique within the feed")
    }

    @Test func everyReferenceFileIsCovered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ReferenceFeeds.directory.path)
        let covered = Set(Self.expectations.map(\.file) + ["Subs.opml", "feedparser-illformed-rss_incomplete_cdata.xml"])
        #expect(Set(files).subtracting(covered).isEmpty)
    }

    /// A CDATA section that never ends swallows the rest of the document: the channel is read,
    /// the cut is reported, and nothing past it is invented.
    @Test func incompleteCDATAIsReadUpToTheCut() throws {
        let data = try ReferenceFeeds.data("feedparser-illformed-rss_incomplete_cdata.xml")
        let feed = try FeedParser.parse(data: data, url: ReferenceFeeds.feedURL("illformed"))
        #expect(feed.title == "can feedparser read this xml")
        #expect(feed.items.isEmpty)
        #expect(feed.warnings.map(\.problem) == [.truncated])
    }

    @Test func subscriptionListHasItsFeedsAndFolders() throws {
        let document = try OPMLParser.parse(data: ReferenceFeeds.data("Subs.opml"))
        #expect(document.title == "Subs")
        #expect(document.outlines.count == 73)
        #expect(document.feeds.count == 207)
        #expect(document.folders.map(\.title) == ["Programming", "Macintosh", "Weblogs", "Writers"])
        #expect(document.folders.map(\.children.count) == [33, 5, 97, 3])
        #expect(document.feeds.filter(\.folderPath.isEmpty).count == 69)
        let first = try #require(document.feeds.first)
        #expect(first.title == "Daring Fireball")
        #expect(first.feedURL.absoluteString == "http://daringfireball.net/feeds/main")
        #expect(first.homePageURL?.absoluteString == "http://daringfireball.net/")
    }

    @Test func chineseFeedIsDecodedFromGB2312() throws {
        let feed = try ReferenceFeeds.parse("kc0011.rss")
        #expect(feed.items.first?.authors.first?.name == "大鱼儿")
        #expect(feed.summary == "投资资讯网交易在线")
        #expect(feed.language == "zh-cn")
    }

    @Test func atomXHTMLContentAndInheritedAuthor() throws {
        let feed = try ReferenceFeeds.parse("pappacoda.atom")
        let first = try #require(feed.items.first)
        #expect(first.contentHTML?.hasPrefix("<h1>Le favicon non sono difficili</h1>") == true)
        #expect(first.authors.first?.name == "Andrea Pappacoda")
        #expect(first.externalID == "tag:andrea.pappacoda.it,2026-05-24:favicon_2026")
        #expect(feed.items[1].contentHTML == nil)
    }

    @Test func podcastEnclosures() throws {
        let feed = try ReferenceFeeds.parse("theomnishow.rss")
        #expect(feed.items.allSatisfy { $0.attachments.count == 1 })
        #expect(feed.items.first?.attachments.first?.mimeType == "audio/mpeg")
    }
}
