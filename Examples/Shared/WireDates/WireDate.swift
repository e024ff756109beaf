/// Dates as the Vesper sync client and server exchange them (`Examples/Vesper/PROTOCOL.md`,
/// "Dates"): whole milliseconds since 1970 in UTC, written as `2014-06-12T23:44:29.099Z`.
///
/// Reading accepts any ISO 8601 date-time `YYYY-MM-DDTHH:MM:SS` with an optional fraction of 1–9
/// digits (rounded down to the millisecond) and `Z`, `±HH:MM` or `±HHMM`, validated by
/// ``CivilDate/isValid(year:month:day:hour:minute:second:)``. Writing always produces exactly
/// three fractional digits and `Z`, the only form the stock Vesper client reads correctly.
/// Both are hand-written: they run for every date of a 10,000-note sync, and Foundation's
/// formatters are neither exact to the millisecond nor fast.
///
/// ```swift
/// WireDate.milliseconds(from: "2014-06-12T16:44:29.099-07:00")  // 1_402_616_669_099
/// WireDate.string(from: 1_402_616_669_099)                       // "2014-06-12T23:44:29.099Z"
/// ```
public enum WireDate {
    /// The stand-in for a creation, sort or tag-name date that was never sent,
    /// 2012-12-12T12:00:00Z: older than any real edit, so it never wins a merge.
    public static let oldDate: Int64 = 1_355_313_600_000

    /// The milliseconds a wire date names, or nil when `string` is not one.
    public static func milliseconds(from string: String) -> Int64? {
        guard string.utf8.count <= 64 else { return nil }
        var scanner = ASCIIScanner(Array(string.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t"),
            let hour = scanner.number(digits: 2), scanner.skip(":"),
            let minute = scanner.number(digits: 2), scanner.skip(":"),
            let second = scanner.number(digits: 2),
            CivilDate.isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        var millisecond: Int64 = 0
        if scanner.skip(".") {
            let digits = scanner.digits()
            guard (1...9).contains(digits.count) else { return nil }
            millisecond = (digits + [0, 0]).prefix(3).reduce(0) { $0 * 10 + $1 }
        }
        var offsetMinutes: Int64 = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offsetMinutes = 0
        } else if let sign: Int64 = scanner.skip("+") ? 1 : (scanner.skip("-") ? -1 : nil),
            let hours = scanner.number(digits: 2)
        {
            _ = scanner.skip(":")
            guard let minutes = scanner.number(digits: 2), hours <= 23, minutes <= 59 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        } else {
            return nil
        }
        guard scanner.atEnd else { return nil }
        let days = CivilDate.daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetMinutes * 60
        return seconds * 1_000 + millisecond
    }

    /// `milliseconds` as `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public static func string(from milliseconds: Int64) -> String {
        let (days, millisecondOfDay) = CivilDate.floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = CivilDate.date(daysSince1970: days)
        let second = millisecondOfDay / 1_000
        guard (0...9_999).contains(year) else {
            let pad = CivilDate.padded
            return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(second / 3_600, 2) + ":"
                + pad(second / 60 % 60, 2) + ":" + pad(second % 60, 2) + "." + pad(millisecondOfDay % 1_000, 3) + "Z"
        }
        // Digit by digit into the string's own storage: a sync response holds tens of thousands
        // of dates, and joining padded pieces was most of the time spent writing one.
        return String(unsafeUninitializedCapacity: 24) { text in
            var index = 0
            func put(_ value: Int64, digits: Int) {
                var divisor: Int64 = 1
                for _ in 1..<digits { divisor *= 10 }
                var rest = value
                while divisor > 0 {
                    text[index] = UInt8(ascii: "0") + UInt8(rest / divisor)
                    rest %= divisor
                    divisor /= 10
                    index += 1
                }
            }
            func put(_ separator: Unicode.Scalar) {
                text[index] = UInt8(ascii: separator)
                index += 1
            }
            put(year, digits: 4)
            put("-")
            put(month, digits: 2)
            put("-")
            put(day, digits: 2)
            put("T")
            put(second / 3_600, digits: 2)
            put(":")
            put(second / 60 % 60, digits: 2)
            put(":")
            put(second % 60, digits: 2)
            put(".")
            put(millisecondOfDay % 1_000, digits: 3)
            put("Z")
            return index
        }
    }
}

/// Reads ASCII text byte by byte.
struct ASCIIScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, index < bytes.count, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    /// Exactly `count` decimal digits as a number.
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
