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

    /// A malformed declaration doesn't end where the parser stops reading it, so the
    /// instruction inside this one would reach the parser if the declaration were kept.
    @Test func anInstructionInsideAMalformedDeclarationIsDropped() throws {
        let feed = try parse("<?xml version=\"1.0\" encoding=x/><a><?xml?>\n<rss version=\"2.0\"><channel><title>T</title></channel></rss>")
        #expect(feed.title == "T")
    }

    /// Dropping `<?a?>` from `<<?a?>?b?>` must not join the `<` and the `?` around it into a new
    /// instruction: the document is malformed, and reported so.
    @Test func droppingAnInstructionDoesNotMakeANewOne() throws {
        let feed = try parse("<rss version=\"2.0\"><channel><title>x</title><<?a?>?b?></channel></rss>")
        #expect(feed.title == "x")
        #expect(feed.warnings.first?.problem == .malformedXML(code: 68, message: "a \"<\" or \"&\" that starts nothing"))
    }

    /// The line breaks inside a dropped instruction are kept, so warning positions stay true.
    @Test func errorsAfterADroppedInstructionReportTheirRealLine() throws {
        let feed = try parse("<rss version=\"2.0\"><?note\nspanning\nlines?><channel>\n<title>x</titel></channel></rss>")
        #expect(feed.warnings.map(\.line) == [4])
    }

    @Test func anUnterminatedInstructionIsReportedAndTheRestKept() throws {
        let feed = try parse("<rss version=\"2.0\"><channel><title>x</title><?cut")
        #expect(feed.title == "x")
        #expect(feed.warnings.map(\.problem).contains(.truncated))
    }
}
