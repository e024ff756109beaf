import Foundation
import Testing
import FeedParser

@Suite struct DateParserTests {
    static let cases: [(String, String)] = [
        // RFC 822 / 1123
        ("Wed, 05 Feb 2014 04:31:39 +0000", "2014-02-05T04:31:39Z"),
        ("Wed, 5 Feb 2014 04:31:39 GMT", "2014-02-05T04:31:39Z"),
        ("05 Feb 2014 04:31:39 +0000", "2014-02-05T04:31:39Z"),          // no weekday
        ("Wed, 05 Feb 2014 04:31:39 -0700", "2014-02-05T11:31:39Z"),
        ("Wed, 05 Feb 2014 04:31:39 +05:30", "2014-02-04T23:01:39Z"),     // colon in offset
        ("Wed, 05 Feb 2014 04:31:39 EST", "2014-02-05T09:31:39Z"),
        ("Thu, 25 Aug 2016 15:20:00 PDT", "2016-08-25T22:20:00Z"),
        ("Thu, 25 Aug 2016 15:20:00 CEST", "2016-08-25T13:20:00Z"),
        ("Thu, 25 Aug 2016 15:20:00 UT", "2016-08-25T15:20:00Z"),
        ("Thu, 25 Aug 16 15:20:00 +0000", "2016-08-25T15:20:00Z"),        // two-digit year
        ("Sat, 25 Dec 99 10:00:00 GMT", "1999-12-25T10:00:00Z"),
        ("Thu, 25 Aug 2016 15:20 +0000", "2016-08-25T15:20:00Z"),         // no seconds
        ("Thursday, 25 August 2016 15:20:00 +0000", "2016-08-25T15:20:00Z"),
        ("25-Aug-2016 15:20:00 +0200", "2016-08-25T13:20:00Z"),
        ("Aug 25 2016 15:20:00 PST", "2016-08-25T23:20:00Z"),             // month first
        ("  Thu,  25 Aug 2016 15:20:00 GMT+0100  ", "2016-08-25T14:20:00Z"),
        ("Thu, 25 Aug 2016 15:20:00", "2016-08-25T15:20:00Z"),            // no zone = UTC
        // RFC 3339 / ISO 8601
        ("20251103T100000Z", "2025-11-03T10:00:00Z"),                      // basic format
        ("20251103T1000+0100", "2025-11-03T09:00:00Z"),
        ("20251103", "2025-11-03T00:00:00Z"),
        ("2015-09-08T14:21:41Z", "2015-09-08T14:21:41Z"),
        ("2015-09-08T14:21:41.123Z", "2015-09-08T14:21:41.123Z"),
        ("2015-09-08T14:21:41+02:00", "2015-09-08T12:21:41Z"),
        ("2015-09-08T14:21:41+0200", "2015-09-08T12:21:41Z"),
        ("2015-09-08T14:21:41.5-05:00", "2015-09-08T19:21:41.500Z"),
        ("2015-09-08t14:21:41z", "2015-09-08T14:21:41Z"),
        ("2015-09-08 14:21:41", "2015-09-08T14:21:41Z"),
        ("2015-09-08T14:21Z", "2015-09-08T14:21:00Z"),
        ("2019-08-24", "2019-08-24T00:00:00Z"),
        ("2020/1/10 14:33:00", "2020-01-10T14:33:00Z"),
        ("2000-02-29T00:00:00Z", "2000-02-29T00:00:00Z"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
    ]

    @Test(arguments: cases)
    func parses(_ input: String, _ expected: String) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let expectedDate = try #require(formatter.date(from: expected) ?? ISO8601DateFormatter().date(from: expected))
        let parsed = try #require(DateParser.date(from: input))
        #expect(abs(parsed.timeIntervalSince(expectedDate)) < 0.000_5, "\(input) -> \(parsed)")
    }

    @Test(arguments: ["", "   ", "yesterday", "Wed, 32 Feb 2014", "Fri, 29 Feb 2013 10:00:00 GMT", "2015-06-31T00:00:00Z", "2015-13-01T00:00:00Z", "12:30", "Feb 2014", "20251345", "20251103T1"])
    func rejects(_ input: String) {
        #expect(DateParser.date(from: input) == nil)
    }
}
