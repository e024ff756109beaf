import Foundation

/// Fast, allocation-free parsing of the date formats found in feeds, without
/// `DateFormatter`.
///
/// Understood forms:
/// - RFC 3339 / ISO 8601: `2015-09-08T14:21:41Z`, `…41.123Z`, `…41+02:00`,
///   `…41+0200`, `2019-08-24` (midnight UTC), `2020/1/10 14:33:00` (no zone = UTC);
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
            return scanner.parseRFC822()
        }
    }

    /// Seconds since 1970 for a UTC calendar date and time
    /// (days-from-civil algorithm by Howard Hinnant).
    static func timestamp(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = (adjustedYear >= 0 ? adjustedYear : adjustedYear - 399) / 400
        let yearOfEra = adjustedYear - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// Builds a `Date` after validating the fields; `offset` is seconds east of UTC.
    static func makeDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                         fraction: Double, offset: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour),
              (0...59).contains(minute), (0...60).contains(second), (1...9999).contains(year) else { return nil }
        let seconds = timestamp(year: year, month: month, day: day, hour: hour, minute: minute,
                                second: min(second, 59)) - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Expands a two-digit year the way RFC 2822 suggests.
    static func fullYear(_ year: Int, digits: Int) -> Int {
        guard digits <= 2 else { return year }
        return year < 50 ? 2000 + year : 1900 + year
    }
}
