import Testing
import WireDates

/// The one wire-date implementation the sync client and server share, with its edge cases.
@Suite struct WireDateTests {
    @Test(arguments: [
        ("2014-06-12T23:44:29.099Z", 1_402_616_669_099),
        ("2014-06-12t23:44:29.099z", 1_402_616_669_099),
        ("2014-06-12T16:44:29.099-07:00", 1_402_616_669_099),
        ("2014-06-13T06:44:29.099+0700", 1_402_616_669_099),
        ("2014-06-12T23:44:29Z", 1_402_616_669_000),
        ("2014-06-12T23:44:29.5Z", 1_402_616_669_500),
        ("2014-06-12T23:44:29.09Z", 1_402_616_669_090),
        // Fractions are cut to the millisecond, never rounded up.
        ("2014-06-12T23:44:29.099999999Z", 1_402_616_669_099),
        ("1970-01-01T00:00:00.000Z", 0),
        ("1969-12-31T23:59:59.999Z", -1),
        ("2000-02-29T12:00:00Z", 951_825_600_000),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000),
        ("2014-12-31T23:59:59.999+23:59", 1_419_984_059_999),
    ] as [(String, Int64)])
    func parses(_ text: String, _ milliseconds: Int64) {
        #expect(WireDate.milliseconds(from: text) == milliseconds)
    }

    @Test(arguments: [
        "", "2014-06-12", "2014-06-12 23:44:29Z", "2014-06-12T23:44:29",
        "2014-06-12T23:44:29.Z", "2014-06-12T23:44:29.0999999999Z",
        // Days that don't exist in their month, and February 29 outside leap years.
        "2014-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2014-04-31T00:00:00Z", "2014-06-00T00:00:00Z",
        "2014-13-12T23:44:29Z", "2014-00-12T23:44:29Z",
        // Hour 24 and leap seconds are not accepted.
        "2014-06-12T24:00:00Z", "2014-06-12T23:60:00Z", "2016-12-31T23:59:60Z",
        "2014-06-12T23:44:29+24:00", "2014-06-12T23:44:29+01:60", "2014-06-12T23:44:29+1",
        "2014-06-12T23:44:29Zjunk", "Thu, 12 Jun 2014 23:44:29 GMT", "+2014-06-12T23:44:29Z",
        String(repeating: "9", count: 65),
    ])
    func rejects(_ text: String) {
        #expect(WireDate.milliseconds(from: text) == nil)
    }

    @Test func writesUTCWithExactlyThreeFractionalDigits() {
        #expect(WireDate.string(from: 1_402_616_669_099) == "2014-06-12T23:44:29.099Z")
        #expect(WireDate.string(from: 1_402_616_669_000) == "2014-06-12T23:44:29.000Z")
        #expect(WireDate.string(from: 0) == "1970-01-01T00:00:00.000Z")
        #expect(WireDate.string(from: -1) == "1969-12-31T23:59:59.999Z")
        #expect(WireDate.string(from: 951_825_600_000) == "2000-02-29T12:00:00.000Z")
        #expect(WireDate.string(from: WireDate.oldDate) == "2012-12-12T12:00:00.000Z")
    }

    @Test func everyWrittenDateReadsBackExactly() {
        // Every day of four centuries, at a different millisecond of the day each time.
        var milliseconds: Int64 = -6_000_000_000_000
        while milliseconds < 7_000_000_000_000 {
            #expect(WireDate.milliseconds(from: WireDate.string(from: milliseconds)) == milliseconds)
            milliseconds += 86_400_000 + 1_234
        }
    }

    @Test func calendarRules() {
        #expect(CivilDate.daysInMonth(year: 2024, month: 2) == 29)
        #expect(CivilDate.daysInMonth(year: 2100, month: 2) == 28)
        #expect(CivilDate.daysInMonth(year: 2000, month: 2) == 29)
        #expect(CivilDate.daysInMonth(year: 2023, month: 9) == 30)
        #expect(CivilDate.daysSince1970(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilDate.daysSince1970(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilDate.date(daysSince1970: 19_782) == (2024, 2, 29))
        #expect(CivilDate.floorDivision(-1, 1_000) == (-1, 999))
    }
}
