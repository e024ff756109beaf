import Foundation
import Testing
import FeedParser

let fixtureURL = URL(string: "https://example.com/feeds/main.xml")!

func parse(_ text: String, url: URL = fixtureURL) throws -> ParsedFeed {
    try FeedParser.parse(data: Data(text.utf8), url: url)
}

@Suite struct FormatTests {
    @Test func rss20() throws {
        let feed = try parse("""
            <?xml version="1.0" encoding="utf-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
                 xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">
            <channel>
              <title>Example Weblog</title>
              <link>https://example.com/</link>
              <atom:link rel="self" href="https://example.com/feeds/main.xml"/>
              <description>Notes</description>
              <language>en</language>
              <item>
                <title>First post</title>
                <link>https://example.com/1</link>
                <guid isPermaLink="false">post-1</guid>
                <description>Short</description>
                <content:encoded><![CDATA[<p>Long <b>body</b></p>]]></content:encoded>
                <pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate>
                <author>jane@example.com (Jane Doe)</author>
                <dc:creator>John Roe</dc:creator>
                <category>swift</category>
                <enclosure url="/audio/1.mp3" length="1234" type="audio/mpeg"/>
              </item>
            </channel>
            </rss>
            """)
        #expect(feed.format == .rss)
        #expect(feed.title == "Example Weblog")
        #expect(feed.homePageURL == URL(string: "https://example.com/"))
        #expect(feed.feedURL == URL(string: "https://example.com/feeds/main.xml"))
        #expect(feed.summary == "Notes")
        #expect(feed.language == "en")
        let item = try #require(feed.items.first)
        #expect(feed.items.count == 1)
        #expect(item.title == "First post")
        #expect(item.url == URL(string: "https://example.com/1"))
        #expect(item.externalID == "post-1")
        #expect(item.contentHTML == "<p>Long <b>body</b></p>")
        #expect(item.summary == "Short")
        #expect(item.datePublished == date("2003-06-10T04:00:00Z"))
        #expect(item.authors == [ParsedAuthor(name: "Jane Doe", email: "jane@example.com"), ParsedAuthor(name: "John Roe")])
        #expect(item.tags == ["swift"])
        #expect(item.attachments == [ParsedAttachment(url: URL(string: "https://example.com/audio/1.mp3")!,
                                                      mimeType: "audio/mpeg", sizeInBytes: 1234)])
    }

    @Test func rss10RDF() throws {
        let feed = try parse("""
            <?xml version="1.0"?>
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
                     xmlns:dc="http://purl.org/dc/elements/1.1/">
              <channel rdf:about="https://example.com/rdf">
                <title>RDF Site</title><link>https://example.com/</link><description>d</description>
              </channel>
              <item rdf:about="https://example.com/a"><title>A</title><link>https://example.com/a</link>
                <dc:date>2004-01-02T03:04:05+01:00</dc:date><dc:creator>Ann</dc:creator></item>
              <item rdf:about="https://example.com/b"><title>B</title><link>https://example.com/b</link></item>
            </rdf:RDF>
            """)
        #expect(feed.format == .rdf)
        #expect(feed.title == "RDF Site")
        #expect(feed.homePageURL == URL(string: "https://example.com/"))
        #expect(feed.items.map(\.title) == ["A", "B"])
        #expect(feed.items.map(\.externalID) == ["https://example.com/a", "https://example.com/b"])
        #expect(feed.items[0].datePublished == date("2004-01-02T02:04:05Z"))
        #expect(feed.items[0].authors.map(\.name) == ["Ann"])
    }

    @Test func atom10() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom">
              <title type="html">Tom &amp;amp; Jerry</title>
              <subtitle>Cartoons</subtitle>
              <link href="https://example.com/"/>
              <link rel="self" href="https://example.com/atom"/>
              <author><name>Feed Author</name><uri>https://example.com/me</uri><email>me@example.com</email></author>
              <entry>
                <id>urn:uuid:1</id>
                <title>Entry one</title>
                <link rel="alternate" href="https://example.com/e1"/>
                <link rel="related" href="https://other.example/x"/>
                <link rel="enclosure" href="https://example.com/e1.mp3" type="audio/mpeg" length="99"/>
                <published>2005-07-31T12:29:29Z</published>
                <updated>2005-08-01T00:00:00.250Z</updated>
                <summary>Sum</summary>
                <content type="html">&lt;p&gt;Hi&lt;/p&gt;</content>
                <category term="t1"/><category term="t2" label="Two"/>
              </entry>
              <entry>
                <id>urn:uuid:2</id><title>Entry two</title>
                <updated>2005-08-02T00:00:00Z</updated>
                <author><name>Someone Else</name></author>
                <content type="text">Plain &lt;text&gt;</content>
              </entry>
            </feed>
            """)
        #expect(feed.format == .atom)
        #expect(feed.title == "Tom & Jerry")
        #expect(feed.summary == "Cartoons")
        #expect(feed.homePageURL == URL(string: "https://example.com/"))
        #expect(feed.feedURL == URL(string: "https://example.com/atom"))
        let first = feed.items[0], second = feed.items[1]
        #expect(first.externalID == "urn:uuid:1")
        #expect(first.url == URL(string: "https://example.com/e1"))
        #expect(first.externalURL == URL(string: "https://other.example/x"))
        #expect(first.datePublished == date("2005-07-31T12:29:29Z"))
        #expect(first.dateModified == Date(timeIntervalSince1970: date("2005-08-01T00:00:00Z").timeIntervalSince1970 + 0.25))
        #expect(first.contentHTML == "<p>Hi</p>")
        #expect(first.contentText == nil)
        #expect(first.summary == "Sum")
        #expect(first.tags == ["t1", "Two"])
        #expect(first.authors == [ParsedAuthor(name: "Feed Author", url: URL(string: "https://example.com/me"),
                                               email: "me@example.com")])
        #expect(first.attachments.first?.sizeInBytes == 99)
        #expect(second.datePublished == date("2005-08-02T00:00:00Z"), "falls back to updated")
        #expect(second.contentText == "Plain <text>")
        #expect(second.contentHTML == nil)
        #expect(second.authors.map(\.name) == ["Someone Else"])
    }

    @Test func atomXHTMLContentIsSerializedWithoutWrapperDiv() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>X</title>
            <entry><id>1</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">A <b>bold</b> title</div></title>
            <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p class="c">1 &lt; 2 &amp; <a href="x?a=1&amp;b=2">link</a></p><br/></div></content>
            </entry></feed>
            """)
        let item = try #require(feed.items.first)
        #expect(item.contentHTML == #"<p class="c">1 &lt; 2 &amp; <a href="x?a=1&amp;b=2">link</a></p><br>"#)
        #expect(item.title == "A bold title", "an XHTML title reads as its words")

        let unwrapped = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom"><entry><id>2</id>
            <content type="xhtml"><p>no wrapper</p><div>kept</div></content></entry></feed>
            """)
        #expect(unwrapped.items.first?.contentHTML == "<p>no wrapper</p><div>kept</div>")
    }

    @Test func jsonFeed11() throws {
        let feed = try parse("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "J", "home_page_url": "https://example.com/",
             "feed_url": "https://example.com/feed.json", "language": "en-GB",
             "authors": [{"name": "Feed Person", "url": "https://example.com/p", "avatar": "/a.png"}],
             "items": [
               {"id": "1", "url": "https://example.com/1", "title": "One", "content_html": "<p>1</p>",
                "content_text": "1", "summary": "s", "date_published": "2020-01-02T03:04:05+00:00",
                "date_modified": "2020-01-03T03:04:05Z", "tags": ["a", "b"],
                "authors": [{"name": "Item Person"}],
                "attachments": [{"url": "https://example.com/1.m4a", "mime_type": "audio/x-m4a",
                                 "size_in_bytes": 10, "duration_in_seconds": 61.5, "title": "Ep"}]},
               {"id": 42, "content_text": "numeric id, inherits authors"}
             ]}
            """)
        #expect(feed.format == .jsonFeed)
        #expect(feed.title == "J")
        #expect(feed.language == "en-GB")
        #expect(feed.authors == [ParsedAuthor(name: "Feed Person", url: URL(string: "https://example.com/p"),
                                              avatarURL: URL(string: "https://example.com/a.png"))])
        let first = feed.items[0], second = feed.items[1]
        #expect(first.authors.map(\.name) == ["Item Person"])
        #expect(first.contentHTML == "<p>1</p>")
        #expect(first.contentText == "1")
        #expect(first.datePublished == date("2020-01-02T03:04:05Z"))
        #expect(first.dateModified == date("2020-01-03T03:04:05Z"))
        #expect(first.tags == ["a", "b"])
        #expect(first.attachments == [ParsedAttachment(url: URL(string: "https://example.com/1.m4a")!,
                                                       mimeType: "audio/x-m4a", title: "Ep", sizeInBytes: 10,
                                                       durationInSeconds: 61.5)])
        #expect(second.externalID == "42")
        #expect(second.authors.map(\.name) == ["Feed Person"])
    }

    @Test func jsonFeed10SingularAuthor() throws {
        let feed = try parse("""
            {"version": "https://jsonfeed.org/version/1", "title": "Old",
             "author": {"name": "Solo", "url": "https://example.com/solo"},
             "items": [{"id": "x", "title": "T", "author": {"name": "Guest"}}, {"id": "y", "title": "U"}]}
            """)
        #expect(feed.authors == [ParsedAuthor(name: "Solo", url: URL(string: "https://example.com/solo"))])
        #expect(feed.items.map { $0.authors.map(\.name) } == [["Guest"], ["Solo"]])
    }

    @Test func formatDetection() {
        func format(_ text: String) -> FeedFormat? { FeedParser.detectFormat(data: Data(text.utf8)) }
        #expect(format("<?xml version='1.0'?><!-- c --><!DOCTYPE rss [<!ENTITY x 'y'>]><rss/>") == .rss)
        #expect(format("<rdf:RDF xmlns:rdf='x'/>") == .rdf)
        #expect(format("\u{FEFF}  <feed xmlns='http://www.w3.org/2005/Atom'/>") == .atom)
        #expect(format("<opml version='2.0'/>") == .opml)
        #expect(format(#"  {"version": "https://jsonfeed.org/version/1.1"}"#) == .jsonFeed)
        #expect(format(#"{"version": "1.0"}"#) == nil)
        #expect(format("<html><body/></html>") == nil)
    }

    @Test func errors() {
        #expect(throws: FeedParserError.emptyData) { try parse("  \n") }
        #expect(throws: FeedParserError.unsupportedFormat) { try parse("<html><body>hi</body></html>") }
        #expect(throws: FeedParserError.unsupportedFormat) { try parse(#"{"version": "2"}"#) }
        #expect(throws: FeedParserError.unexpectedFormat(.opml)) { try parse("<opml><body/></opml>") }
        #expect(throws: FeedParserError.unexpectedFormat(.rss)) { try OPMLParser.parse(data: Data("<rss/>".utf8)) }
        #expect(throws: FeedParserError.unsupportedEncoding("x-no-such-charset")) {
            try parse(#"<?xml version="1.0" encoding="x-no-such-charset"?><rss/>"#)
        }
        #expect {
            try parse(#"{"version": "https://jsonfeed.org/version/1", "items": [}"#)
        } throws: { error in
            if case .malformedJSON = error as? FeedParserError { return true }
            return false
        }
    }

    @Test func malformedXMLIsReadWithAWarningAtItsLine() throws {
        let mismatched = try parse("<rss><channel>\n<title>x</title>\n<item><title>a</titel></item></channel></rss>")
        #expect(mismatched.items.map(\.title) == ["a"])
        #expect(mismatched.warnings == [FeedParseWarning(
            problem: .malformedXML(code: 76, message: "an end tag that does not match its start tag"), line: 3)])

        let cutOff = try parse("<rss><channel><title>cut off")
        #expect(cutOff.title == "cut off")
        #expect(cutOff.warnings == [FeedParseWarning(problem: .truncated, line: 1)])
    }

    @Test func aDocumentWithNoRootElementIsRefused() {
        #expect {
            try parse("<?xml version=\"1.0\"?>\n<!-- nothing but a comment")
        } throws: { error in
            error as? FeedParserError == .unsupportedFormat
        }
    }
}
