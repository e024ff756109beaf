/// Calendar arithmetic on the proleptic Gregorian calendar in UTC, shared by every date format
/// the examples read and write (sync dates, HTTP dates, feed dates).
///
/// The day counts follow Howard Hinnant's `days_from_civil` and `civil_from_days` algorithms:
/// exact for any year, no Foundation calendar involved.
public enum CivilDate {
    /// The number of days in `month` (1–12) of `year`; February has 29 in leap years.
    public static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether `year` has a February 29th.
    public static func isLeapYear(_ year: Int64) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The validation every date format here applies: a month of 1–12, a day that exists in that
    /// month, hours 0–23, minutes and seconds 0–59 (no leap seconds).
    public static func isValid(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64)
        -> Bool
    {
        // Years are bounded so that no arithmetic on a valid date can overflow (a fuzzer found
        // an HTTP date with the year 26666666603).
        (1...9999).contains(year) && (1...12).contains(month) && day >= 1 && day <= daysInMonth(year: year, month: month)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
    }

    /// Days from 1970-01-01 to the given date (negative before).
    public static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivision(y, 400).quotient
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01.
    public static func date(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
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

    /// Quotient and non-negative remainder, so that times before 1970 split correctly.
    public static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = value / divisor - (value % divisor < 0 ? 1 : 0)
        return (quotient, value - quotient * divisor)
    }

    /// `value` in decimal, left-padded with zeros to `width` digits.
    public static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
