/// Offsets of the time-zone names that appear in feed dates.
enum TimeZoneAbbreviations {
    /// Seconds east of UTC for a lowercased abbreviation such as `pdt`.
    static func offset(for lowercasedName: [UInt8]) -> Int? {
        guard let hours = table[String(decoding: lowercasedName, as: UTF8.self)] else { return nil }
        return Int(hours * 3_600)
    }

    private static let table: [String: Double] = [
        "z": 0, "ut": 0, "utc": 0, "gmt": 0, "wet": 0,
        "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
        "akst": -9, "akdt": -8, "hst": -10, "ast": -4, "adt": -3, "nst": -3.5, "ndt": -2.5,
        "bst": 1, "ist": 5.5, "cet": 1, "cest": 2, "met": 1, "mest": 2, "west": 1, "eet": 2, "eest": 3,
        "msk": 3, "jst": 9, "kst": 9, "hkt": 8, "sgt": 8, "awst": 8, "acst": 9.5, "acdt": 10.5,
        "aest": 10, "aedt": 11, "nzst": 12, "nzdt": 13,
    ]
}
