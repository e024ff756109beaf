import Foundation

/// Dates on the wire (protocol §1.6) and in HTTP headers, and the millisecond rule that merges
/// compare by.
///
/// Sending: UTC with exactly three fractional digits (`2014-06-12T23:44:29.099Z`), the form the
/// server itself sends. Receiving: any ISO 8601 date-time with an optional fraction of 1–9 digits
/// and `Z`, `±HH:MM` or `±HHMM`. Anything else is "no value", like null and absent.
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

    /// Whether the server's date wins over the local one (§7.5 at millisecond precision, as the
    /// server compares): a missing server date never wins, a missing local date always loses,
    /// otherwise the strictly later millisecond wins.
    public static func serverWins(_ server: Date?, over local: Date?) -> Bool {
        guard let server else { return false }
        guard let local else { return true }
        return milliseconds(server) > milliseconds(local)
    }

    // MARK: Wire format

    /// `2014-06-12T23:44:29.099Z`.
    public static func string(from date: Date) -> String {
        let ms = milliseconds(date)
        let (days, msOfDay) = floorDivision(ms, 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let seconds = msOfDay / 1_000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3_600, 2)):\(pad(seconds / 60 % 60, 2))"
            + ":\(pad(seconds % 60, 2)).\(pad(msOfDay % 1_000, 3))Z"
    }

    /// Parses a wire date; nil when it is not an ISO 8601 date-time.
    public static func date(from string: String) -> Date? {
        var scanner = ByteScanner(Array(string.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t"),
              let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2), scanner.skip(":"),
              let second = scanner.number(digits: 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var milliseconds: Int64 = 0
        if scanner.skip(".") {
            let digits = scanner.digits()
            guard (1...9).contains(digits.count) else { return nil }
            let firstThree = (digits + [0, 0]).prefix(3)
            milliseconds = firstThree.reduce(0) { $0 * 10 + $1 }
        }
        var offsetMinutes: Int64 = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offsetMinutes = 0
        } else if let sign: Int64 = scanner.skip("+") ? 1 : (scanner.skip("-") ? -1 : nil),
                  let hours = scanner.number(digits: 2) {
            _ = scanner.skip(":")
            guard let minutes = scanner.number(digits: 2), hours < 24, minutes < 60 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        } else {
            return nil
        }
        guard scanner.atEnd else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetMinutes * 60
        return date(milliseconds: seconds * 1_000 + milliseconds)
    }

    // MARK: HTTP dates (RFC 1123)

    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Thu, 12 Jun 2014 23:44:29 GMT`.
    public static func httpString(from date: Date) -> String {
        let seconds = floorDivision(milliseconds(date), 1_000).quotient
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        let weekday = weekdays[Int(floorDivision(days, 7).remainder)]
        return "\(weekday), \(pad(day, 2)) \(months[Int(month - 1)]) \(pad(year, 4)) "
            + "\(pad(secondOfDay / 3_600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)) GMT"
    }

    /// Parses an RFC 1123 HTTP date (the weekday is not checked); nil otherwise.
    public static func date(fromHTTP string: String) -> Date? {
        let parts = string.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT" || parts[5] == "UTC",
              let day = Int64(parts[1]), let monthIndex = months.firstIndex(of: String(parts[2])),
              let year = Int64(parts[3]), (1...9999).contains(year), (1...31).contains(day) else { return nil }
        // Bounded year and non-negative fields: the arithmetic below can't overflow (a fuzzer
        // found "26666666603" as a year).
        let time = parts[4].split(separator: ":").compactMap { Int64($0) }
        guard time.count == 3, (0..<24).contains(time[0]), (0..<60).contains(time[1]), (0..<61).contains(time[2]) else {
            return nil
        }
        let days = daysSince1970(year: year, month: Int64(monthIndex + 1), day: day)
        return date(milliseconds: (days * 86_400 + time[0] * 3_600 + time[1] * 60 + time[2]) * 1_000)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, after Howard Hinnant's algorithms)

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value / divisor - (value % divisor < 0 ? 1 : 0)
        return (quotient, value - quotient * divisor)
    }

    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivision(y, 400).quotient
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivision(z, 146_097).quotient
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Reads ASCII dates byte by byte.
private struct ByteScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, index < bytes.count, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    /// Exactly `digits` decimal digits as a number.
    mutating func number(digits count: Int) -> Int64? {
        guard index + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[index..<index + count] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        index += count
        return value
    }

    /// Every decimal digit from here, as values.
    mutating func digits() -> [Int64] {
        var found: [Int64] = []
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            found.append(Int64(bytes[index] - 0x30))
            index += 1
        }
        return found
    }
}
