import Foundation
import Testing
import FeedParser

/// Processing instructions are dropped before the XML parser sees them: feeds need none, and the
/// toolchain's `XMLParser` crashes on one without data. These documents crashed the parser before.
@Suite struct ProcessingInstructionTests {
    @Test func anInstructionWithoutDataInsideTheFeedIsDropped() throws {
        let feed = try parse("""
            <?xml version="1.0"?>
            <rss version="2.0"><channel><?empty?><title>Kept</title>
            <item><title>One</title><?also-empty?></item></channel></rss>
            """)
        #expect(feed.title == "Kept")
        #expect(feed.items.map(\.title) == ["One"])
    }

    @Test func aStylesheetInstructionAfterTheDeclarationIsDropped() throws {
        let feed = try parse("""
            <?xml version="1.0" encoding="utf-8"?>
            <?xml-stylesheet type="text/xsl" href="/feed.xsl"?>
            <rss version="2.0"><channel><title>Styled</title></channel></rss>
            """)
        #expect(feed.title == "Styled")
    }

    /// `<?xml` without white space after it is not a declaration but an instruction named
    /// `xml…`, and it is dropped like any other.
    @Test func anInstructionNamedLikeTheDeclarationIsDropped() throws {
        let feed = try parse("<?xmlish?><rss version=\"2.0\"><channel><title>First</title></channel></rss>")
        #expect(feed.title == "First")
    }

    @Test func anUnterminatedInstructionIsAMalformedDocument() {
        #expect {
            try parse("<rss version=\"2.0\"><channel><title>x</title><?cut")
        } throws: { error in
            if case .malformedXML = error as? FeedParserError { return true }
            return false
        }
    }
}
