import Foundation
import Testing
import FeedParser

/// Markup written straight into a feed's XML (not escaped, not in CDATA) is kept as the HTML it
/// is in descriptions and content, and read as its words in titles.
@Suite struct MarkupTests {
    @Test func inlineMarkupInADescriptionIsKept() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><title>T</title>
            <item><guid>1</guid><description>Hello <b>world</b>, more text</description></item>
            <item><guid>2</guid><description>A&amp;B <a href="/x?a=1&amp;b=2">link</a><br/>next<img src="i.png"/></description></item>
            </channel></rss>
            """)
        #expect(feed.items.map(\.contentHTML) == [
            "Hello <b>world</b>, more text",
            #"A&amp;B <a href="/x?a=1&amp;b=2">link</a><br/>next<img src="i.png"/>"#,
        ])
    }

    @Test func rawContentEncodedKeepsItsParagraphs() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title>
            <item><guid>1</guid><description>Short</description><content:encoded><p>Para one</p><p>Para two</p></content:encoded></item>
            </channel></rss>
            """)
        let item = try #require(feed.items.first)
        #expect(item.contentHTML == "<p>Para one</p><p>Para two</p>")
        #expect(item.summary == "Short")
    }

    @Test func escapedAndCDATAContentIsUnchanged() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title>
            <item><guid>1</guid><description>&lt;p&gt;Escaped &amp;amp; fine&lt;/p&gt;</description></item>
            <item><guid>2</guid><content:encoded><![CDATA[<p>In CDATA & raw</p>]]></content:encoded></item>
            </channel></rss>
            """)
        #expect(feed.items.map(\.contentHTML) == ["<p>Escaped &amp; fine</p>", "<p>In CDATA & raw</p>"])
    }

    @Test func titlesKeepTheirTextContent() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>The <em>best</em> feed</title>
            <item><guid>1</guid><title>Why <i>Dune</i> matters</title></item>
            <item><guid>2</guid><dc:title>Nested <b>very <i>deep</i></b> words</dc:title></item>
            </channel></rss>
            """)
        #expect(feed.title == "The best feed")
        #expect(feed.items.map(\.title) == ["Why Dune matters", "Nested very deep words"])
    }

    @Test func atomHTMLContentWithChildElementsIsKept() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entry><id>1</id><title type="html">Plain <b>bold</b></title>
            <summary type="html">Sum <em>mary</em></summary>
            <content type="html"><p>Not escaped</p></content></entry>
            </feed>
            """)
        let item = try #require(feed.items.first)
        #expect(item.title == "Plain bold")
        #expect(item.summary == "Sum <em>mary</em>")
        #expect(item.contentHTML == "<p>Not escaped</p>")
    }

    /// An Atom title is text unless its type says HTML: HTML titles read as their words (never
    /// a script's), text titles exactly as written, decoded once.
    @Test func atomTitlesAreReadByTheirType() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entry><id>1</id><title type="html">AT&amp;amp;T &lt;b&gt;rocks&lt;/b&gt;</title></entry>
            <entry><id>2</id><title type="html">&lt;script&gt;alert(1)&lt;/script&gt;Safe</title></entry>
            <entry><id>3</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Hi<script>alert(1)</script> there</div></title></entry>
            <entry><id>4</id><title type="text">1 &lt; 2 &amp;amp; Q&amp;A</title></entry>
            <entry><id>5</id><title>Q&amp;A &lt;weekly&gt;</title></entry>
            </feed>
            """)
        #expect(feed.items.map(\.title) == ["AT&T rocks", "Safe", "Hi there", "1 < 2 &amp; Q&A", "Q&A <weekly>"])
    }

    @Test func atomWithoutItsNamespaceIsRead() throws {
        let feed = try parse("""
            <feed><title>No namespace</title><link href="https://example.org/"/>
            <entry><id>1</id><title>First</title><content type="html">&lt;p&gt;Body&lt;/p&gt;</content>
            <updated>2025-11-03T10:00:00Z</updated></entry></feed>
            """)
        #expect(feed.format == .atom)
        #expect(feed.title == "No namespace")
        #expect(feed.items.map(\.title) == ["First"])
        #expect(feed.items.first?.contentHTML == "<p>Body</p>")
        #expect(feed.items.first?.url == nil)
        #expect(feed.homePageURL == URL(string: "https://example.org/"))
    }

    @Test func atom03InlineAndBase64TitlesReadAsText() throws {
        let encoded = Data("Caf\u{E9} <b>news</b>".utf8).base64EncodedString()
        let feed = try parse("""
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title mode="xml">The <b>feed</b></title>
            <entry><id>1</id><title mode="base64">\(encoded)</title><issued>2004-01-01T00:00:00Z</issued></entry>
            <entry><id>2</id><title mode="xml" type="application/xhtml+xml"><div xmlns="http://www.w3.org/1999/xhtml">An <i>inline</i> one</div></title></entry>
            <entry><id>3</id><title mode="base64">not base64!</title></entry>
            </feed>
            """)
        #expect(feed.title == "The feed")
        #expect(feed.items.map(\.title) == ["Caf\u{E9} <b>news</b>", "An inline one", "not base64!"])
    }

    @Test func aMediaTitleNamesAnItemWithoutATitle() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>T</title>
            <item><guid>1</guid><media:title>On the item</media:title></item>
            <item><guid>2</guid><media:group><media:title>In a group</media:title></media:group></item>
            <item><guid>3</guid><media:content url="https://example.com/v.mp4"><media:title>On the content</media:title></media:content></item>
            <item><guid>4</guid><title>Own title</title><media:title>Not used</media:title></item>
            </channel></rss>
            """)
        #expect(feed.items.map(\.title) == ["On the item", "In a group", "On the content", "Own title"])
    }
}
