import Foundation
import WireDates

/// Fast, allocation-free parsing of the date formats found in feeds, without
/// `DateFormatter`.
///
/// Understood forms:
/// - RFC 3339 / ISO 8601: `2015-09-08T14:21:41Z`, `…41.123Z`, `…41+02:00`,
///   `…41+0200`, `2019-08-24` (midnight UTC), `2020/1/10 14:33:00` (no zone = UTC), and the
///   basic format without separators, `20251103T100000Z` and `20251103`;
/// - RFC 822 / 1123 and their common corruptions: `Wed, 05 Feb 2014 04:31:39 +0000`,
///   without weekday, `GMT`/`UT`/`Z`/North-American and a few other zone names,
///   two-digit years (`< 50` → 20xx), missing seconds, full month names,
///   `25-Aug-2016`, and `Aug 25 2016 10:00 PDT` (month before day).
///
/// Strings without a recognisable year, month and day give `nil`.
public enum DateParser {
    /// Parses `string`, or returns `nil`.
    public static func date(from string: String) -> Date? {
        var copy = string
        return copy.withUTF8 { bytes -> Date? in
            var scanner = DateScanner(bytes: bytes)
            scanner.skipWhitespace()
            guard scanner.index < bytes.count else { return nil }
            if scanner.looksLikeISO8601() {
                return scanner.parseISO8601()
            }
            if scanner.looksLikeCompactISO8601() {
                return scanner.parseCompactISO8601()
            }
            return scanner.parseRFC822()
        }
    }

    /// Builds a `Date` after validating the fields as every date format in the examples is
    /// validated (`CivilDate.isValid`: the day exists in its month, no hour 24, no leap second);
    /// `offset` is seconds east of UTC.
    static func makeDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                         fraction: Double, offset: Int) -> Date? {
        guard (1...9999).contains(year),
              CivilDate.isValid(year: Int64(year), month: Int64(month), day: Int64(day),
                                hour: Int64(hour), minute: Int64(minute), second: Int64(second))
        else { return nil }
        let days = CivilDate.daysSince1970(year: Int64(year), month: Int64(month), day: Int64(day))
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second - offset)
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Expands a two-digit year the way RFC 2822 suggests.
    static func fullYear(_ year: Int, digits: Int) -> Int {
        guard digits <= 2 else { return year }
        return year < 50 ? 2000 + year : 1900 + year
    }
}
