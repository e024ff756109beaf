import Foundation
import Testing
import FeedParser

@Suite struct LargeFeedTests {
    /// Builds an RSS document of at least `megabytes` MB.
    static func syntheticFeed(megabytes: Int) -> (data: Data, items: Int) {
        let body = String(repeating: "Lorem ipsum dolor sit amet &amp; consectetur. ", count: 40)
        var text = #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Big</title>"#
        text.reserveCapacity(megabytes * 1_048_576 + 4096)
        var count = 0
        while text.utf8.count < megabytes * 1_048_576 {
            text += "<item><title>Item \(count)</title><link>https://big.example/\(count)</link>"
                + "<guid>big-\(count)</guid><pubDate>Wed, 05 Feb 2014 04:31:39 +0000</pubDate>"
                + "<description><![CDATA[<p>\(body)</p>]]></description></item>\n"
            count += 1
        }
        text += "</channel></rss>"
        return (Data(text.utf8), count)
    }

    @Test func fiftyMegabyteFeed() throws {
        let (data, count) = Self.syntheticFeed(megabytes: 50)
        let clock = ContinuousClock()
        var feed: ParsedFeed?
        let elapsed = try clock.measure {
            feed = try FeedParser.parse(data: data, url: URL(string: "https://big.example/rss")!)
        }
        let items = try #require(feed?.items)
        #expect(items.count == count)
        #expect(items.last?.title == "Item \(count - 1)")
        #expect(items.last?.url?.absoluteString == "https://big.example/\(count - 1)")
        #expect(Set(items.map(\.uniqueID)).count == count)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("50 MB synthetic feed: \(count) items in \(elapsed) (\(Int(Double(count) / seconds)) items/s)")
    }
}
