import Foundation

/// Byte-level cursor used by ``DateParser``.
struct DateScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    /// Reads up to `maxDigits` digits; returns value and digit count.
    private mutating func number(maxDigits: Int = 9) -> (value: Int, digits: Int)? {
        var value = 0, digits = 0
        while digits < maxDigits, let byte = current, Self.isDigit(byte) {
            value = value * 10 + Int(byte - 0x30)
            digits += 1
            index += 1
        }
        return digits > 0 ? (value, digits) : nil
    }

    private mutating func word() -> [UInt8] {
        var letters: [UInt8] = []
        while let byte = current, Self.isLetter(byte) {
            if letters.count < 8 { letters.append(byte | 0x20) }
            index += 1
        }
        return letters
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    /// Fractional seconds after a `.` or `,`.
    private mutating func fraction() -> Double {
        guard current == UInt8(ascii: ".") || current == UInt8(ascii: ",") else { return 0 }
        index += 1
        var value = 0.0, scale = 0.1
        while let byte = current, Self.isDigit(byte) {
            value += Double(byte - 0x30) * scale
            scale /= 10
            index += 1
        }
        return value
    }

    /// Numeric offset after `+`/`-`: `hh:mm`, `hhmm` or `hh`. Seconds east of UTC.
    private mutating func numericOffset() -> Int? {
        guard let sign = current, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        index += 1
        guard let first = number(maxDigits: 4) else { return nil }
        var hours = first.value, minutes = 0
        if first.digits >= 3 {
            hours = first.value / 100
            minutes = first.value % 100
        } else if consume(UInt8(ascii: ":")), let minutePart = number(maxDigits: 2) {
            minutes = minutePart.value
        }
        let seconds = hours * 3_600 + minutes * 60
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }

    // MARK: ISO 8601

    /// Four digits followed by `-` or `/`.
    func looksLikeISO8601() -> Bool {
        guard index + 4 < bytes.count else { return false }
        for offset in 0..<4 where !Self.isDigit(bytes[index + offset]) { return false }
        return bytes[index + 4] == UInt8(ascii: "-") || bytes[index + 4] == UInt8(ascii: "/")
    }

    mutating func parseISO8601() -> Date? {
        guard let year = number(maxDigits: 4) else { return nil }
        index += 1
        guard let month = number(maxDigits: 2) else { return nil }
        guard consume(UInt8(ascii: "-")) || consume(UInt8(ascii: "/")), let day = number(maxDigits: 2) else { return nil }
        var hour = 0, minute = 0, second = 0, fractional = 0.0, offset = 0
        if consume(UInt8(ascii: "T")) || consume(UInt8(ascii: "t")) || consume(UInt8(ascii: " ")) {
            skipWhitespace()
            if let parsedHour = number(maxDigits: 2) {
                hour = parsedHour.value
                if consume(UInt8(ascii: ":")), let parsedMinute = number(maxDigits: 2) { minute = parsedMinute.value }
                if consume(UInt8(ascii: ":")), let parsedSecond = number(maxDigits: 2) { second = parsedSecond.value }
                fractional = fraction()
            }
            skipWhitespace()
            offset = zone() ?? 0
        }
        return DateParser.makeDate(year: year.value, month: month.value, day: day.value, hour: hour,
                                   minute: minute, second: second, fraction: fractional, offset: offset)
    }

    /// Eight digits, then `T` or the end of the date: ISO 8601's basic format, `20251103T100000Z`.
    func looksLikeCompactISO8601() -> Bool {
        guard index + 8 <= bytes.count else { return false }
        for offset in 0..<8 where !Self.isDigit(bytes[index + offset]) { return false }
        guard index + 8 < bytes.count else { return true }
        let next = bytes[index + 8]
        return next == UInt8(ascii: "T") || next == UInt8(ascii: "t") || next == 0x20
    }

    /// `yyyymmdd`, optionally `Thhmm` or `Thhmmss` with a fraction and a zone.
    mutating func parseCompactISO8601() -> Date? {
        guard let year = number(maxDigits: 4), let month = number(maxDigits: 2), let day = number(maxDigits: 2) else {
            return nil
        }
        var hour = 0, minute = 0, second = 0, fractional = 0.0, offset = 0
        if consume(UInt8(ascii: "T")) || consume(UInt8(ascii: "t")) {
            guard let parsedHour = number(maxDigits: 2), parsedHour.digits == 2 else { return nil }
            hour = parsedHour.value
            if let parsedMinute = number(maxDigits: 2) { minute = parsedMinute.value }
            if let parsedSecond = number(maxDigits: 2) { second = parsedSecond.value }
            fractional = fraction()
            skipWhitespace()
            offset = zone() ?? 0
        }
        return DateParser.makeDate(year: year.value, month: month.value, day: day.value, hour: hour,
                                   minute: minute, second: second, fraction: fractional, offset: offset)
    }

    /// `Z`, a numeric offset, or a zone name.
    private mutating func zone() -> Int? {
        if let offset = numericOffset() { return offset }
        let name = word()
        guard !name.isEmpty else { return nil }
        let base = TimeZoneAbbreviations.offset(for: name)
        skipWhitespace()
        if let extra = numericOffset() { return (base ?? 0) + extra }  // "GMT+0100"
        return base
    }

    // MARK: RFC 822 and relatives

    mutating func parseRFC822() -> Date? {
        var year: (value: Int, digits: Int)?
        var month: Int?
        var day: Int?
        var hour = 0, minute = 0, second = 0, fractional = 0.0
        var offset: Int?
        var sawTime = false
        while let byte = current {
            if Self.isDigit(byte) {
                guard let value = number() else { break }
                if !sawTime, consume(UInt8(ascii: ":")) {
                    sawTime = true
                    hour = value.value
                    minute = number(maxDigits: 2)?.value ?? 0
                    if consume(UInt8(ascii: ":")) { second = number(maxDigits: 2)?.value ?? 0 }
                    fractional = fraction()
                } else if value.digits >= 3 || value.value > 31 || (day != nil && year == nil) {
                    if year == nil { year = value }
                } else if day == nil {
                    day = value.value
                }
            } else if Self.isLetter(byte) {
                let name = word()
                if month == nil, let monthNumber = Self.month(named: name) {
                    month = monthNumber
                } else if sawTime, offset == nil, let zoneOffset = TimeZoneAbbreviations.offset(for: name) {
                    offset = zoneOffset
                    skipWhitespace()
                    if let extra = numericOffset() { offset = zoneOffset + extra }
                }
            } else if sawTime, offset == nil, byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                offset = numericOffset()
                if offset == nil { index += 1 }
            } else {
                index += 1
            }
        }
        guard let year, let month, let day else { return nil }
        return DateParser.makeDate(year: DateParser.fullYear(year.value, digits: year.digits), month: month,
                                   day: day, hour: hour, minute: minute, second: second,
                                   fraction: fractional, offset: offset ?? 0)
    }

    /// Month number for an English month name or its first three letters.
    private static func month(named name: [UInt8]) -> Int? {
        guard name.count >= 3 else { return nil }
        switch (name[0], name[1], name[2]) {
        case (0x6A, 0x61, 0x6E): return 1   // jan
        case (0x66, 0x65, 0x62): return 2   // feb
        case (0x6D, 0x61, 0x72): return 3   // mar
        case (0x61, 0x70, 0x72): return 4   // apr
        case (0x6D, 0x61, 0x79): return 5   // may
        case (0x6A, 0x75, 0x6E): return 6   // jun
        case (0x6A, 0x75, 0x6C): return 7   // jul
        case (0x61, 0x75, 0x67): return 8   // aug
        case (0x73, 0x65, 0x70): return 9   // sep
        case (0x6F, 0x63, 0x74): return 10  // oct
        case (0x6E, 0x6F, 0x76): return 11  // nov
        case (0x64, 0x65, 0x63): return 12  // dec
        default: return nil
        }
    }
}
