import Foundation
import Testing
import FeedParser

private func rss(itemTitle: String, declaration: String = "") -> String {
    "\(declaration)<rss version=\"2.0\"><channel><title>T</title><item><title>\(itemTitle)</title>"
        + "<link>https://example.com/x</link></item></channel></rss>"
}

private func firstTitle(_ data: Data) throws -> String? {
    try FeedParser.parse(data: data, url: fixtureURL).items.first?.title
}

@Suite struct EncodingTests {
    @Test func htmlEntitiesInTitlesAreDecoded() throws {
        #expect(try firstTitle(Data(rss(itemTitle: "Tom &amp;amp; Jerry&#8217;s &amp;#8220;show&amp;#x201D;").utf8))
                == "Tom & Jerry’s “show”")
        // HTML entities used directly in XML (not defined by XML) are kept.
        #expect(try firstTitle(Data(rss(itemTitle: "caf&eacute;&nbsp;&mdash;&hellip; &copy;").utf8))
                == "café\u{A0}—… ©")
        // Unknown entity names are kept as written, not fatal, and lose no text.
        #expect(try firstTitle(Data(rss(itemTitle: "a&bogus;b").utf8)) == "a&bogus;b")
    }

    @Test func entityDecoderEdgeCases() {
        #expect(HTMLEntityDecoder.decode("no entities") == "no entities")
        #expect(HTMLEntityDecoder.decode("&lt;b&gt; &quot;q&quot; &apos;") == "<b> \"q\" '")
        #expect(HTMLEntityDecoder.decode("AT&T & &unknown; &#0; &#xZZ; &") == "AT&T & &unknown; &#0; &#xZZ; &")
        #expect(HTMLEntityDecoder.decode("&#128512;&#x1F600;") == "😀😀")
    }

    @Test func cdataTitleAndContent() throws {
        let feed = try parse("""
            <rss><channel><title><![CDATA[Q&A <weekly>]]></title>
            <item><title><![CDATA[Ben &amp; Jerry]]></title><description><![CDATA[<p>a]]]]><![CDATA[>b</p>]]></description></item>
            </channel></rss>
            """)
        #expect(feed.title == "Q&A <weekly>")
        #expect(feed.items.first?.title == "Ben & Jerry")
        #expect(feed.items.first?.contentHTML == "<p>a]]>b</p>")
    }

    @Test func utf8ByteOrderMark() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + Data(rss(itemTitle: "Bömb", declaration: "<?xml version=\"1.0\" encoding=\"utf-8\"?>").utf8)
        #expect(try firstTitle(data) == "Bömb")
        let json = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"1","title":"Bömb"}]}"#.utf8)
        #expect(try FeedParser.parse(data: json, url: fixtureURL).items.first?.title == "Bömb")
    }

    @Test func utf16WithByteOrderMark() throws {
        let text = rss(itemTitle: "Ünïcødé ✓", declaration: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>")
        var little = Data([0xFF, 0xFE])
        for unit in text.utf16 { little.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        #expect(try firstTitle(little) == "Ünïcødé ✓")
        var big = Data([0xFE, 0xFF])
        for unit in text.utf16 { big.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)]) }
        #expect(try firstTitle(big) == "Ünïcødé ✓")
    }

    /// Without a byte-order mark, `<?` in two-byte units says UTF-16 (the XML parser reads it so).
    @Test func utf16WithoutByteOrderMark() throws {
        let text = rss(itemTitle: "Ünïcødé ✓", declaration: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>")
        var little = Data()
        for unit in text.utf16 { little.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        #expect(try firstTitle(little) == "Ünïcødé ✓")
        var big = Data()
        for unit in text.utf16 { big.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)]) }
        #expect(try firstTitle(big) == "Ünïcødé ✓")
    }

    @Test func declaredLegacyEncodings() throws {
        func document(_ encoding: String, _ titleBytes: [UInt8]) -> Data {
            Data("<?xml version=\"1.0\" encoding=\"\(encoding)\"?><rss><channel><item><title>".utf8)
                + Data(titleBytes) + Data("</title></item></channel></rss>".utf8)
        }
        // "你好，世界" in GB2312.
        let chinese: [UInt8] = [0xC4, 0xE3, 0xBA, 0xC3, 0xA3, 0xAC, 0xCA, 0xC0, 0xBD, 0xE7]
        #expect(try firstTitle(document("gb2312", chinese)) == "你好，世界")
        #expect(try firstTitle(document("GBK", chinese)) == "你好，世界")
        // windows-1252 curly quotes, euro sign and e-acute.
        #expect(try firstTitle(document("windows-1252", [0x93, 0x80, 0x35, 0x94, 0x20, 0xE9])) == "“€5” é")
        // ISO-8859-1 is read as its windows-1252 superset, like browsers do.
        #expect(try firstTitle(document("ISO-8859-1", [0x47, 0x72, 0xFC, 0xDF, 0x65, 0x92])) == "Grüße’")
        // ISO-8859-2: "Łódź" and "šč".
        #expect(try firstTitle(document("iso-8859-2", [0xA3, 0xF3, 0x64, 0xBC, 0x20, 0xB9, 0xE8])) == "Łódź šč")
    }

    @Test func invalidUTF8IsRepairedAsWindows1252() throws {
        let data = Data("<rss><channel><item><title>caf".utf8) + Data([0xE9]) + Data(" — ok</title></item></channel></rss>".utf8)
        #expect(try firstTitle(data) == "café — ok")
    }

    @Test func undeclaredNamespacePrefixesAreTolerated() throws {
        let feed = try parse("""
            <rss version="2.0"><channel><title>T</title><item><title>I</title>
            <dc:creator>Undeclared</dc:creator><content:encoded>&lt;p&gt;body&lt;/p&gt;</content:encoded>
            </item></channel></rss>
            """)
        #expect(feed.items.first?.authors.map(\.name) == ["Undeclared"])
        #expect(feed.items.first?.contentHTML == "<p>body</p>")
    }

    @Test func junkAfterRootElementIsIgnored() throws {
        let feed = try parse(rss(itemTitle: "x") + "\n<br>Warning: PHP notice")
        #expect(feed.items.count == 1)
    }

    @Test func xmlBaseAndRelativeLinks() throws {
        let feed = try parse("""
            <rss version="2.0" xml:base="https://base.example/blog/"><channel><title>T</title><link>/</link>
            <item><title>1</title><link>posts/1.html</link><enclosure url="../media/1.mp3" type="audio/mpeg"/></item>
            <item xml:base="https://other.example/a/b/"><title>2</title><link>c.html</link></item>
            <item><title>3</title><link>  https://absolute.example/3  </link></item>
            </channel></rss>
            """, url: URL(string: "https://feeds.example/rss.xml")!)
        #expect(feed.homePageURL?.absoluteString == "https://base.example/")
        #expect(feed.items.map { $0.url?.absoluteString } == [
            "https://base.example/blog/posts/1.html", "https://other.example/a/b/c.html", "https://absolute.example/3",
        ])
        #expect(feed.items[0].attachments.first?.url.absoluteString == "https://base.example/media/1.mp3")

        // Without xml:base, links resolve against the feed URL.
        let plain = try parse("<rss><channel><link>/home</link><item><link>item?id=1</link></item></channel></rss>",
                              url: URL(string: "https://feeds.example/dir/rss.xml")!)
        #expect(plain.homePageURL?.absoluteString == "https://feeds.example/home")
        #expect(plain.items.first?.url?.absoluteString == "https://feeds.example/dir/item?id=1")
    }

    @Test func nestedXMLBaseInAtom() throws {
        let feed = try parse("""
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://example.org/root/">
              <link href="index.html"/>
              <entry xml:base="entries/">
                <id>e</id><link href="one.html"/>
                <link rel="enclosure" xml:base="/media/" href="one.mp3"/>
              </entry>
            </feed>
            """)
        #expect(feed.homePageURL?.absoluteString == "https://example.org/root/index.html")
        #expect(feed.items.first?.url?.absoluteString == "https://example.org/root/entries/one.html")
        #expect(feed.items.first?.attachments.first?.url.absoluteString == "https://example.org/media/one.mp3")
    }
}
