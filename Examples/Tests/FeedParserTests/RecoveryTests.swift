import Foundation
import Testing
import FeedParser

/// Documents that are not well-formed XML, as real feeds often are: every item that can be read
/// is kept, and each problem is reported once with its line and count.
@Suite struct RecoveryTests {
    private func rss(_ items: String, declaration: String = "") -> String {
        declaration + "<rss version=\"2.0\"><channel><title>Feed</title>\n" + items + "\n</channel></rss>"
    }

    @Test func aBareAmpersandReadsAsText() throws {
        let feed = try parse(rss("""
            <item><title>Tom & Jerry</title><guid>1</guid></item>
            <item><title>Fish &chips; & more</title><guid>2</guid><link>https://example.com/?a=1&b=2</link></item>
            <item><title>Caf&eacute; &nbsp here</title><guid>3</guid></item>
            """))
        #expect(feed.items.map(\.title) == ["Tom & Jerry", "Fish &chips; & more", "Café &nbsp here"])
        #expect(feed.items[1].url == URL(string: "https://example.com/?a=1&b=2"))
        #expect(feed.warnings == [FeedParseWarning(problem: .bareAmpersand, line: 2, occurrences: 4)])
        #expect(feed.warnings.first?.description == #"line 2: a bare "&" read as text (4 times)"#)
    }

    @Test func forbiddenCharactersAreReplaced() throws {
        let feed = try parse(rss("""
            <item><title>Item\u{0B}2</title><guid>1</guid></item>
            <item><title>Null\u{00}byte</title><guid>2</guid><description>ref &#1; and &#x0C; ok &#65;</description></item>
            """))
        #expect(feed.items.map(\.title) == ["Item 2", "Null\u{FFFD}byte"])
        #expect(feed.items[1].contentHTML == "ref \u{FFFD} and   ok A")
        #expect(feed.warnings == [FeedParseWarning(problem: .forbiddenCharacter, line: 2, occurrences: 4)])
    }

    @Test func bytesThatAreNotUTF8SpoilOnlyTheirItem() throws {
        let data = bytes(rss("""
            <item><title>Good</title><guid>1</guid></item>
            <item><title>Bad @</title><guid>2</guid></item>
            <item><title>Also good</title><guid>3</guid></item>
            """, declaration: "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"), placing: [0xE9, 0xFF])
        let feed = try FeedParser.parse(data: data, url: fixtureURL)
        #expect(feed.items.map(\.title) == ["Good", "Bad éÿ", "Also good"])
        #expect(feed.warnings == [FeedParseWarning(problem: .invalidUTF8, line: 4, occurrences: 2)])
    }

    /// A document mostly in another encoding it never declared is read as windows-1252 through
    /// and through, rather than mixing in the characters a few byte pairs happen to make in UTF-8.
    @Test func aDocumentMostlyNotUTF8IsReadAsWindows1252Throughout() throws {
        // "café" in UTF-8 (C3 A9) once, and four bytes that are not UTF-8 at all.
        let data = bytes(rss("<item><title>@</title><guid>1</guid></item>"), placing: [0xC3, 0xA9, 0xE0, 0xE8, 0xEC, 0xF2])
        let feed = try FeedParser.parse(data: data, url: fixtureURL)
        #expect(feed.items.map(\.title) == ["Ã©àèìò"])
        #expect(feed.warnings.map(\.occurrences) == [6])
    }

    @Test func aTruncatedDocumentKeepsItsCompleteItems() throws {
        let whole = rss("""
            <item><title>One</title><guid>1</guid></item>
            <item><title>Two</title><guid>2</guid></item>
            <item><title>Three</title><guid>3</guid><description>cut here
            """)
        let cut = String(whole[..<whole.range(of: "cut here")!.upperBound])
        let feed = try parse(cut)
        #expect(feed.title == "Feed")
        #expect(feed.items.map(\.title) == ["One", "Two"])
        #expect(feed.warnings == [FeedParseWarning(problem: .truncated, line: 4)])
    }

    @Test func aCutInsideATagKeepsTheItemsBeforeIt() throws {
        let feed = try parse("<rss><channel><item><title>A</title></item><item><title>B</ti")
        #expect(feed.items.map(\.title) == ["A"])
        #expect(feed.warnings.map(\.problem).contains(.truncated))
    }

    @Test func anotherXMLErrorIsReportedAndTheRestRead() throws {
        let feed = try parse(rss("""
            <item><title>One</title><guid>1</guid></item>
            <item><title>Two</title><guid a="1" a="2">2</guid></item>
            <item><title>Three</title><guid>3</guid></item>
            """))
        #expect(feed.items.map(\.title) == ["One", "Two", "Three"])
        #expect(feed.warnings == [FeedParseWarning(problem: .malformedXML(code: 42, message: "an attribute given twice"), line: 3)])
    }

    /// After an error it recovers from, libxml2 drops `&amp;`, `&lt;` and the other predefined
    /// entities from the text: they must reach it as numeric references.
    @Test func entitiesAfterARecoveredErrorAreKept() throws {
        let feed = try parse(rss("""
            <item><title>One</title><guid kind="a" kind="b">1</guid></item>
            <item><title>Q&amp;A &#X41;</title><guid>2</guid>
              <description>x &amp; y &quot;q&quot; &apos;s&apos; Fish &amp;amp; chips &lt;b&gt;x&lt;/b&gt;</description></item>
            """))
        #expect(feed.items.map(\.title) == ["One", "Q&A A"])
        #expect(feed.items[1].contentHTML == #"x & y "q" 's' Fish &amp; chips <b>x</b>"#)
        #expect(feed.warnings.map(\.problem) == [.malformedXML(code: 42, message: "an attribute given twice")])
    }

    /// HTML written into a description or title need not be well-formed XML: an unclosed `<br>`
    /// or `<p>` must not swallow the items after it.
    @Test func unclosedHTMLInProseElementsSpoilsNothing() throws {
        let feed = try parse(rss("""
            <item><title>Line<br>break &amp; more</title><guid>1</guid><description>Line<br>break<p>open para</description></item>
            <item><title>Two</title><guid>2</guid><description>Fine</description></item>
            """))
        #expect(feed.items.map(\.title) == ["Line break & more", "Two"])
        #expect(feed.items.map(\.contentHTML) == ["Line<br>break<p>open para", "Fine"])
        #expect(feed.warnings.isEmpty)

        let mixed = try parse(rss("""
            <item><title>x<br>y: <![CDATA[Pillow & Fight]]></title><guid>1</guid><description>a<br><![CDATA[<i>b</i>]]>c</description></item>
            <item><title>Two</title><guid>2</guid></item>
            """))
        #expect(mixed.items.map(\.title) == ["x y: Pillow & Fight", "Two"], "CDATA beside raw HTML")
        #expect(mixed.items.first?.contentHTML == "a<br><i>b</i>c")
    }

    @Test func aCleanDocumentHasNoWarnings() throws {
        let feed = try parse(rss("<item><title>A &amp; B &#233; &lt;</title><guid>1</guid></item>"))
        #expect(feed.items.map(\.title) == ["A & B é <"])
        #expect(feed.warnings.isEmpty)
    }

    @Test func everyProblemAtOnce() throws {
        let whole = bytes(rss("""
            <item><title>A & B</title><guid>1</guid></item>
            <item><title>C\u{0B}D @</title><guid>2</guid></item>
            <item><title>E</title>
            """), placing: [0x93, 0x94])
        let feed = try FeedParser.parse(data: whole.prefix(whole.count - "\n</channel></rss>".utf8.count), url: fixtureURL)
        #expect(feed.items.map(\.title) == ["A & B", "C D \u{201C}\u{201D}"])
        #expect(feed.warnings.map(\.problem) == [.bareAmpersand, .invalidUTF8, .forbiddenCharacter, .truncated])
        #expect(feed.warnings.map(\.line) == [2, 3, 3, 4])
    }

    /// The UTF-8 of `text` with its one `@` replaced by `bytes`.
    private func bytes(_ text: String, placing bytes: [UInt8]) -> Data {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return Data(parts[0].utf8) + Data(bytes) + Data(parts[1].utf8)
    }

    @Test func anOPMLListWithABareAmpersandStillLists() throws {
        let document = try OPMLParser.parse(data: Data("""
            <opml version="2.0"><head><title>Mine</title></head><body>
            <outline text="Tom & Jerry" xmlUrl="https://example.com/a.xml?x=1&y=2"/>
            <outline text="Other" xmlUrl="https://example.com/b.xml"/>
            </body></opml>
            """.utf8))
        #expect(document.feeds.map(\.title) == ["Tom & Jerry", "Other"])
        #expect(document.feeds.first?.feedURL == URL(string: "https://example.com/a.xml?x=1&y=2"))
        #expect(document.warnings == [FeedParseWarning(problem: .bareAmpersand, line: 2, occurrences: 2)])
    }
}
