import Foundation
import Testing
import FeedParser

/// RSS 2.0 written as JSON reads as the same feed as its XML.
@Suite struct RSSInJSONTests {
    private let json = """
        {"rss": {"version": "2.0", "channel": {
            "title": "Daily Notes", "link": "https://notes.example.org/", "description": "What I think",
            "language": "en-us", "pubDate": "Mon, 03 Nov 2025 15:00:00 GMT",
            "item": [
                {"title": "First", "link": "https://notes.example.org/2025/11/03/first",
                 "description": "<p>Hello <b>there</b></p>", "pubDate": "Mon, 03 Nov 2025 14:00:00 GMT",
                 "guid": {"flPermalink": true, "value": "https://notes.example.org/2025/11/03/first"},
                 "category": ["web", "json"],
                 "enclosure": {"url": "https://notes.example.org/a.mp3", "type": "audio/mpeg", "length": 1234}},
                {"description": "A post with no title", "pubDate": "Mon, 03 Nov 2025 13:00:00 GMT",
                 "guid": {"isPermaLink": false, "value": "note-2"}, "dc:creator": "Dave"}
            ]}}}
        """

    @Test func readsAsTheRSSItMirrors() throws {
        let feed = try FeedParser.parse(data: Data(json.utf8), url: fixtureURL)
        #expect(feed.format == .rss)
        #expect(feed.title == "Daily Notes")
        #expect(feed.homePageURL == URL(string: "https://notes.example.org/"))
        #expect(feed.summary == "What I think")
        #expect(feed.language == "en-us")
        #expect(feed.items.count == 2)
        let first = try #require(feed.items.first)
        #expect(first.title == "First")
        #expect(first.url == URL(string: "https://notes.example.org/2025/11/03/first"))
        #expect(first.externalID == "https://notes.example.org/2025/11/03/first")
        #expect(first.contentHTML == "<p>Hello <b>there</b></p>")
        #expect(first.datePublished == date("2025-11-03T14:00:00Z"))
        #expect(first.tags == ["web", "json"])
        #expect(first.attachments == [ParsedAttachment(url: URL(string: "https://notes.example.org/a.mp3")!,
                                                       mimeType: "audio/mpeg", sizeInBytes: 1234)])
        let second = feed.items[1]
        #expect(second.title == nil)
        #expect(second.externalID == "note-2")
        #expect(second.url == nil, "a guid that is not a permalink is no link")
        #expect(second.authors == [ParsedAuthor(name: "Dave")])
    }

    @Test func aSingleItemObjectIsOneItem() throws {
        let feed = try FeedParser.parse(data: Data(#"{"rss": {"channel": {"title": "T", "item": {"title": "Only", "guid": "1"}}}}"#.utf8),
                                        url: fixtureURL)
        #expect(feed.items.map(\.title) == ["Only"])
        #expect(feed.items.map(\.externalID) == ["1"])
    }

    @Test func isDetectedAsRSS() {
        #expect(FeedParser.detectFormat(data: Data(json.utf8)) == .rss)
    }

    @Test func jsonThatIsNeitherFormatIsUnsupported() {
        #expect(throws: FeedParserError.unsupportedFormat) {
            try FeedParser.parse(data: Data(#"{"feed": {"title": "T"}}"#.utf8), url: fixtureURL)
        }
    }
}
