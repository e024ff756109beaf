import Foundation
import WireDates

/// Dates on the wire (PROTOCOL.md, "Dates") and in HTTP headers, and the millisecond rule that merges
/// compare by.
///
/// The wire format itself is `WireDate`, shared with the server; this type converts between it
/// and `Date`. A string that is not a wire date is "no value", like null and absent.
public enum VSSyncDate {
    /// Whole milliseconds since 1970, rounded down. A date that came from milliseconds gives
    /// them back exactly (the small allowance absorbs the binary fraction's error).
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000 + 0.001).rounded(.down))
    }

    /// The date `milliseconds` after 1970.
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }

    /// The date truncated to whole milliseconds: what survives a trip through the server.
    public static func truncated(_ date: Date) -> Date {
        Self.date(milliseconds: milliseconds(date))
    }

    /// Whether the server's date wins over the local one (at millisecond precision, as the
    /// server compares): a missing server date never wins, a missing local date always loses,
    /// otherwise the strictly later millisecond wins.
    public static func serverWins(_ server: Date?, over local: Date?) -> Bool {
        guard let server else { return false }
        guard let local else { return true }
        return milliseconds(server) > milliseconds(local)
    }

    // MARK: Wire format

    /// `2014-06-12T23:44:29.099Z` (`WireDate.string(from:)`).
    public static func string(from date: Date) -> String {
        WireDate.string(from: milliseconds(date))
    }

    /// Parses a wire date (`WireDate.milliseconds(from:)`); nil when it is not one.
    public static func date(from string: String) -> Date? {
        WireDate.milliseconds(from: string).map { date(milliseconds: $0) }
    }

    // MARK: HTTP dates (RFC 1123)

    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Thu, 12 Jun 2014 23:44:29 GMT`.
    public static func httpString(from date: Date) -> String {
        let seconds = CivilDate.floorDivision(milliseconds(date), 1_000).quotient
        let (days, secondOfDay) = CivilDate.floorDivision(seconds, 86_400)
        let (year, month, day) = CivilDate.date(daysSince1970: days)
        let weekday = weekdays[Int(CivilDate.floorDivision(days, 7).remainder)]
        let pad = CivilDate.padded
        return "\(weekday), \(pad(day, 2)) \(months[Int(month - 1)]) \(pad(year, 4)) "
            + "\(pad(secondOfDay / 3_600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)) GMT"
    }

    /// Parses an RFC 1123 HTTP date (the weekday is not checked), validated like wire dates; nil
    /// otherwise.
    public static func date(fromHTTP string: String) -> Date? {
        let parts = string.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT" || parts[5] == "UTC",
              let day = Int64(parts[1]), let monthIndex = months.firstIndex(of: String(parts[2])),
              let year = Int64(parts[3]) else { return nil }
        let time = parts[4].split(separator: ":", omittingEmptySubsequences: false).map { Int64($0) }
        guard time.count == 3, let hour = time[0], let minute = time[1], let second = time[2],
              CivilDate.isValid(year: year, month: Int64(monthIndex + 1), day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        let days = CivilDate.daysSince1970(year: year, month: Int64(monthIndex + 1), day: day)
        return date(milliseconds: (days * 86_400 + hour * 3_600 + minute * 60 + second) * 1_000)
    }
}
