/// Passes any number of uniqueIDs to SQLite as one bound JSON array, read back with `json_each`.
///
/// This keeps every statement's parameter count fixed (no `IN (?, ?, …)` lists that hit
/// SQLite's variable limit) and lets one statement touch 100,000 rows.
enum IDList {
    /// The SQL that stands for "the uniqueIDs in the bound JSON array".
    static let subquery = "SELECT value FROM json_each(?)"

    static func json(_ ids: some Collection<QSAnyID>) -> SQLValue {
        var json = "["
        json.reserveCapacity(ids.count * 8 + 2)
        var first = true
        for id in ids {
            if !first { json += "," }
            first = false
            append(id, to: &json)
        }
        json += "]"
        return .text(json)
    }

    /// Appends one ID as a JSON number or string.
    static func append(_ id: QSAnyID, to json: inout String) {
        switch id {
        case .integer(let value): json += String(value)
        case .string(let value): appendQuoted(value, to: &json)
        }
    }

    private static func appendQuoted(_ string: String, to json: inout String) {
        json += "\""
        // Most IDs need no escaping: append them whole rather than scalar by scalar.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            json += string
            json += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}

/// Quotes an SQL identifier (table or column name).
func quoted(_ identifier: String) -> String {
    "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
