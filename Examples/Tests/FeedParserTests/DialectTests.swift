import Foundation
import Testing
import FeedParser

/// Feed dialects and details that used to lose articles or text without a word.
@Suite struct DialectTests {
    @Test func atom03EntriesAreRead() throws {
        let feed = try parse("""
            <?xml version="1.0" encoding="utf-8"?>
            <feed version="0.3" xmlns="http://purl.org/atom/ns#" xml:lang="en">
              <title>Old Atom</title>
              <tagline>Still publishing</tagline>
              <link rel="alternate" type="text/html" href="https://old.example.net/"/>
              <author><name>Pat Q</name><url>https://old.example.net/pat</url></author>
              <entry>
                <title>First</title>
                <link rel="alternate" type="text/html" href="https://old.example.net/1"/>
                <id>tag:old.example.net,2004:1</id>
                <issued>2004-05-01T10:00:00Z</issued>
                <modified>2004-05-02T11:00:00Z</modified>
                <content type="text/html" mode="escaped">&lt;p&gt;Hello&lt;/p&gt;</content>
              </entry>
              <entry>
                <title>Second</title>
                <id>tag:old.example.net,2004:2</id>
                <created>2004-06-01T08:00:00Z</created>
                <content type="text/plain">Plain words</content>
              </entry>
            </feed>
            """)
        #expect(feed.format == .atom)
        #expect(feed.title == "Old Atom")
        #expect(feed.summary == "Still publishing")
        #expect(feed.homePageURL?.absoluteString == "https://old.example.net/")
        #expect(feed.items.count == 2)
        #expect(feed.unreadItemCount == 0)
        let first = try #require(feed.items.first)
        #expect(first.externalID == "tag:old.example.net,2004:1")
        #expect(first.url?.absoluteString == "https://old.example.net/1")
        #expect(first.datePublished == Date(timeIntervalSince1970: 1_083_405_600))
        #expect(first.dateModified == Date(timeIntervalSince1970: 1_083_495_600))
        #expect(first.contentHTML == "<p>Hello</p>")
        #expect(first.authors == [ParsedAuthor(name: "Pat Q", url: URL(string: "https://old.example.net/pat"))])
        #expect(feed.items[1].contentText == "Plain words")
        #expect(feed.items[1].datePublished == Date(timeIntervalSince1970: 1_086_076_800))
    }

    @Test func rss20InADefaultNamespace() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns="http://backend.userland.com/rss2"><channel>
              <title>Namespaced</title><link>https://ns.example.org/</link>
              <item><title>One</title><guid>https://ns.example.org/1</guid><author>ed@ns.example.org (Ed)</author></item>
              <item><title>Two</title><link>https://ns.example.org/2</link></item>
            </channel></rss>
            """)
        #expect(feed.title == "Namespaced")
        #expect(feed.homePageURL?.absoluteString == "https://ns.example.org/")
        #expect(feed.items.map(\.title) == ["One", "Two"])
        #expect(feed.items.first?.url?.absoluteString == "https://ns.example.org/1")
        #expect(feed.items.first?.authors == [ParsedAuthor(name: "Ed", email: "ed@ns.example.org")])
    }

    @Test func authorsWrittenAsElements() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><title>T</title>
              <item><title>A</title><guid>a</guid>
                <author><name>Rosa Lindqvist</name><title>Staff Writer</title></author>
                <author><name>Omar Haddad</name><email>omar@example.com</email></author>
              </item>
            </channel></rss>
            """)
        #expect(feed.items.first?.authors == [
            ParsedAuthor(name: "Rosa Lindqvist"), ParsedAuthor(name: "Omar Haddad", email: "omar@example.com"),
        ])
    }

    @Test func entitiesNeverDropTheTextAfterThem() throws {
        let feed = try parse("""
            <?xml version="1.0"?>
            <!DOCTYPE rss [
              <!ENTITY brand "Northwind">
              <!ENTITY ext SYSTEM "https://example.com/ext.ent">
            ]>
            <rss version="2.0"><channel><title>&brand; news</title>
              <item><title>before &ext; after</title><guid>1</guid></item>
              <item><title>A &brand; B</title><guid>2</guid><description>x &undeclared; y</description></item>
              <item><title><![CDATA[kept &brand; as is]]></title><guid>3</guid></item>
            </channel></rss>
            """)
        #expect(feed.title == "Northwind news")
        #expect(feed.items.map(\.title) == ["before &ext; after", "A Northwind B", "kept &brand; as is"])
        #expect(feed.items[1].contentHTML == "x &undeclared; y")
    }

    @Test func nestedEntityExpansionIsStillRefused() {
        let laughs = (1...9).map { level in
            "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }.joined(separator: "\n")
        let document = "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY l0 \"ha\">\n\(laughs)]>"
            + "<rss><channel><title>&l9;</title></channel></rss>"
        #expect(throws: FeedParserError.self) { try parse(document) }
    }

    @Test func duplicateGuidsAreCounted() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><title>T</title>
              <item><guid>same</guid><title>newest copy</title></item>
              <item><guid>other</guid><title>other</title></item>
              <item><guid>same</guid><title>older copy</title></item>
            </channel></rss>
            """)
        #expect(feed.items.count == 3)
        #expect(feed.duplicateItemCount == 1)
        #expect(feed.itemElementCount == 3)
    }

    @Test func itemElementsThatBecomeNoItemsAreCounted() throws {
        let feed = try parse(#"<feed xmlns="https://unknown.example/atom-draft"><entry><title>x</title></entry></feed>"#)
        #expect(feed.items.isEmpty)
        #expect(feed.itemElementCount == 1)
        #expect(feed.unreadItemCount == 1)
    }

    @Test func dctermsCreatedIsADate() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns:dcterms="http://purl.org/dc/terms/"><channel><title>T</title>
              <item><guid>1</guid><dcterms:created>2021-02-03T04:05:06Z</dcterms:created></item>
            </channel></rss>
            """)
        #expect(feed.items.first?.datePublished == Date(timeIntervalSince1970: 1_612_325_106))
    }

    @Test func relativeLinksInAFileResolveAgainstTheFeedsOwnLink() throws {
        let file = URL(fileURLWithPath: "/tmp/saved/feed.xml")
        let rss = try parse("""
            <rss version="2.0"><channel><title>T</title><link>https://blog.example.org/journal/</link>
              <item><guid>1</guid><link>posts/1.html</link></item>
              <item xml:base="https://mirror.example.com/a/"><guid>2</guid><link>2.html</link></item>
            </channel></rss>
            """, url: file)
        #expect(rss.items.map(\.url?.absoluteString) == [
            "https://blog.example.org/journal/posts/1.html", "https://mirror.example.com/a/2.html",
        ])
        let atom = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><link href="https://site.example.net/"/>
              <entry><id>1</id><link href="/archive/1"/></entry>
            </feed>
            """, url: file)
        #expect(atom.items.first?.url?.absoluteString == "https://site.example.net/archive/1")
        // Over http the document's own address is the base, as before.
        let web = try parse("<rss><channel><link>https://elsewhere.example/</link><item><link>x.html</link></item></channel></rss>")
        #expect(web.items.first?.url?.absoluteString == "https://example.com/feeds/x.html")
    }

    @Test func emptyHrefUnderXMLBaseIsTheBase() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://base.example.com/dir/">
              <entry><id>1</id><link rel="alternate" href=""/></entry>
            </feed>
            """)
        #expect(feed.items.first?.url?.absoluteString == "https://base.example.com/dir/")
        let noBase = try parse(#"<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>1</id><link href=""/></entry></feed>"#)
        #expect(noBase.items.first?.url == nil)
    }

    @Test func utf32IsReadAndTruncatedUTF32IsIllFormed() throws {
        let text = #"<?xml version="1.0" encoding="UTF-32"?><rss><channel><title>Wide ✓</title></channel></rss>"#
        func utf32(bigEndian: Bool, bom: Bool) -> Data {
            var bytes: [UInt8] = bom ? (bigEndian ? [0, 0, 0xFE, 0xFF] : [0xFF, 0xFE, 0, 0]) : []
            for scalar in text.unicodeScalars {
                let value = bigEndian ? scalar.value.bigEndian : scalar.value.littleEndian
                bytes += withUnsafeBytes(of: value) { Array($0) }
            }
            return Data(bytes)
        }
        #expect(try FeedParser.parse(data: utf32(bigEndian: true, bom: false), url: fixtureURL).title == "Wide ✓")
        #expect(try FeedParser.parse(data: utf32(bigEndian: false, bom: true), url: fixtureURL).title == "Wide ✓")
        #expect {
            try FeedParser.parse(data: utf32(bigEndian: false, bom: true).dropLast(2), url: fixtureURL)
        } throws: { error in
            guard case .malformedXML(_, _, _, let message) = error as? FeedParserError else { return false }
            return message.contains("truncated")
        }
    }
}
