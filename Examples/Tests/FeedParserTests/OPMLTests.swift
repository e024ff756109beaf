import Foundation
import Testing
import FeedParser

@Suite struct OPMLTests {
    @Test func nestedFolders() throws {
        let document = try OPMLParser.parse(data: Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
              <head><title>My &amp;amp; Subs</title></head>
              <body>
                <outline text="Top" type="rss" xmlUrl="https://a.example/feed" htmlUrl="https://a.example/"/>
                <outline text="Tech">
                  <outline title="Swift" text="ignored" type="rss" xmlUrl="https://swift.example/rss"/>
                  <outline text="Deeper">
                    <outline text="Deep feed" type="rss" xmlUrl="https://deep.example/atom"/>
                  </outline>
                  <outline text="Empty folder"/>
                </outline>
                <outline text="Relative" xmlUrl="feed.xml"/>
              </body>
            </opml>
            """.utf8))
        #expect(document.title == "My & Subs")
        #expect(document.outlines.count == 3)
        #expect(document.folders.map(\.title) == ["Tech", "Deeper"])
        #expect(document.feeds == [
            OPMLFeedEntry(title: "Top", feedURL: URL(string: "https://a.example/feed")!,
                          homePageURL: URL(string: "https://a.example/"), folderPath: []),
            OPMLFeedEntry(title: "Swift", feedURL: URL(string: "https://swift.example/rss")!,
                          homePageURL: nil, folderPath: ["Tech"]),
            OPMLFeedEntry(title: "Deep feed", feedURL: URL(string: "https://deep.example/atom")!,
                          homePageURL: nil, folderPath: ["Tech", "Deeper"]),
        ], "a relative xmlUrl without base is dropped; the outline stays a folder-less leaf")
        let tech = document.outlines[1]
        #expect(tech.isFolder)
        #expect(tech.children.count == 3)
        #expect(tech.children[2].isFolder && tech.children[2].children.isEmpty)
    }

    @Test(arguments: [200, 250, 990])
    func deepNesting(levels: Int) throws {
        var text = "<opml version=\"2.0\"><body>"
        for level in 0..<levels { text += "<outline text=\"f\(level)\">" }
        text += "<outline text=\"leaf\" xmlUrl=\"https://leaf.example/feed\"/>"
        text += String(repeating: "</outline>", count: levels) + "</body></opml>"
        let document = try OPMLParser.parse(data: Data(text.utf8))
        let feeds = document.feeds
        #expect(feeds.count == 1)
        #expect(feeds.first?.folderPath.count == levels)
        #expect(feeds.first?.folderPath.last == "f\(levels - 1)")
        #expect(document.folders.count == levels)
    }

    @Test func absurdNestingIsATypedErrorNotACrash() {
        let levels = 20_000
        let text = "<opml><body>" + String(repeating: "<outline text=\"x\">", count: levels)
            + String(repeating: "</outline>", count: levels) + "</body></opml>"
        #expect {
            try OPMLParser.parse(data: Data(text.utf8))
        } throws: { error in
            guard case .nestingTooDeep(let limit, let line, let column) = error as? FeedParserError else { return false }
            return limit == 1_000 && line == 1 && column > 17_000
        }
    }
}
