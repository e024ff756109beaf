import Foundation

/// libFuzzer's entry point for the feed parser: any bytes must parse as a feed or an OPML
/// list, or throw `FeedParserError`, never crash. Compiled into the parser's module by `.ci/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedParser(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let url = URL(string: "https://example.com/feed.xml")!
    _ = FeedParser.detectFormat(data: data)
    do {
        let feed = try FeedParser.parse(data: data, url: url)
        _ = feed.warnings.map(\.description)
    } catch {
        // FeedParserError: the expected outcome for most inputs (the throws clause is typed).
    }
    do {
        _ = try OPMLParser.parse(data: data)
    } catch {
        // FeedParserError, as above.
    }
    return 0
}
