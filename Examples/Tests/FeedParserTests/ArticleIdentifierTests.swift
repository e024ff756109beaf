import Foundation
import Testing
import FeedParser

@Suite struct ArticleIdentifierTests {
    @Test func fnv1aKnownValues() {
        #expect(ArticleIdentifier.fnv1a64Hex("") == "cbf29ce484222325")
        #expect(ArticleIdentifier.fnv1a64Hex("a") == "af63dc4c8601ec8c")
        #expect(ArticleIdentifier.fnv1a64Hex("foobar") == "85944171f73967e8")
    }

    @Test func guidBasedID() throws {
        let item = try #require(try parse("<rss><channel><item><guid>abc</guid><link>https://x/1</link></item></channel></rss>").items.first)
        #expect(item.uniqueID == ArticleIdentifier.fnv1a64Hex(fixtureURL.absoluteString + "\nid:abc"))
    }

    @Test func missingGuidUsesLink() throws {
        let item = try #require(try parse("<rss><channel><item><title>t</title><link>/1</link></item></channel></rss>").items.first)
        #expect(item.externalID == nil)
        #expect(item.uniqueID == ArticleIdentifier.fnv1a64Hex(fixtureURL.absoluteString + "\nlink:https://example.com/1"))
    }

    @Test func neitherGuidNorLinkUsesTitleAndDate() throws {
        let feed = try parse("""
            <rss><channel>
            <item><title>Same</title><pubDate>Thu, 01 Jan 1970 00:01:40 GMT</pubDate></item>
            <item><title>Same</title><pubDate>Thu, 01 Jan 1970 00:01:41 GMT</pubDate></item>
            <item><title>Only title</title></item>
            <item><description>Only content</description></item>
            </channel></rss>
            """)
        let prefix = fixtureURL.absoluteString + "\n"
        #expect(feed.items.map(\.uniqueID) == [
            ArticleIdentifier.fnv1a64Hex(prefix + "title:Same\u{1F}date:100"),
            ArticleIdentifier.fnv1a64Hex(prefix + "title:Same\u{1F}date:101"),
            ArticleIdentifier.fnv1a64Hex(prefix + "title:Only title\u{1F}date:"),
            ArticleIdentifier.fnv1a64Hex(prefix + "content:Only content"),
        ])
    }

    @Test func idsAreStableAcrossParsesAndDependOnTheFeedURL() throws {
        let text = """
            <feed xmlns="http://www.w3.org/2005/Atom"><entry><id>tag:x,2020:1</id></entry>
            <entry><link href="https://example.com/2"/></entry></feed>
            """
        let first = try parse(text), second = try parse(text)
        #expect(first.items.map(\.uniqueID) == second.items.map(\.uniqueID))
        #expect(first.items.map(\.uniqueID) == ["tag:x,2020:1", "https://example.com/2"].enumerated().map {
            ArticleIdentifier.fnv1a64Hex(fixtureURL.absoluteString + ($0.offset == 0 ? "\nid:" : "\nlink:") + $0.element)
        })
        let elsewhere = try parse(text, url: URL(string: "https://mirror.example/feed")!)
        #expect(Set(elsewhere.items.map(\.uniqueID)).isDisjoint(with: first.items.map(\.uniqueID)))
    }
}
