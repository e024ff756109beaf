/// Dates on the wire (PROTOCOL.md, "Dates"), as exact Int64 milliseconds since 1970 in UTC.
///
/// Parsing accepts any ISO 8601 date-time with optional 1–9 fractional digits and `Z`, `±HH:MM`
/// or `±HHMM`; the fraction is floored to milliseconds. Formatting always produces the
/// JavaScript `toISOString` form with exactly three fractional digits, which is the only form the
/// stock client reads correctly. Both are hand-written on purpose: they run for every date of a
/// 10,000-note sync, and Foundation's formatters are neither exact to the millisecond nor fast.
enum WireDate {
    /// The original server's stand-in for a missing date: 2012-12-12T12:00:00Z.
    static let oldDate: Int64 = 1_355_313_600_000

    /// `yyyy-MM-ddTHH:mm:ss[.f…][Z|±HH:MM|±HHMM]` → milliseconds, or nil when the string is not one.
    static func milliseconds(from string: String) -> Int64? {
        guard string.utf8.count <= 64 else { return nil }
        return parse(Array(string.utf8))
    }

    private static func parse(_ bytes: [UInt8]) -> Int64? {
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ characters: UInt8...) -> Bool {
            guard index < bytes.count, characters.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2),
            expect(84, 116), let hour = digits(2), expect(58), let minute = digits(2), expect(58),
            let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }

        var millisecond = 0
        if index < bytes.count, bytes[index] == 46 {  // "."
            index += 1
            var count = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                if count < 3 { millisecond = millisecond * 10 + Int(bytes[index] - 48) }
                count += 1
                index += 1
            }
            guard (1...9).contains(count) else { return nil }
            if count < 3 {
                for _ in count..<3 { millisecond *= 10 }
            }
        }

        guard index < bytes.count else { return nil }
        var offsetMinutes = 0
        switch bytes[index] {
        case 90, 122:  // "Z", "z"
            index += 1
        case 43, 45:  // "+", "-"
            let sign = bytes[index] == 45 ? -1 : 1
            index += 1
            guard let offsetHours = digits(2) else { return nil }
            _ = expect(58)
            guard let offsetMinutesPart = digits(2), offsetHours <= 23, offsetMinutesPart <= 59 else { return nil }
            offsetMinutes = sign * (offsetHours * 60 + offsetMinutesPart)
        default:
            return nil
        }
        guard index == bytes.count else { return nil }

        let days = Int64(daysSince1970(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return seconds * 1000 + Int64(millisecond)
    }

    /// Milliseconds → `YYYY-MM-DDTHH:MM:SS.sssZ`.
    static func string(from milliseconds: Int64) -> String {
        let (seconds, millisecond) = milliseconds.floorDivided(by: 1000)
        let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "." + pad(millisecond, 3) + "Z"
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, after Howard Hinnant's algorithms)

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    /// Quotient and non-negative remainder (floor division), so times before 1970 format correctly.
    func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
