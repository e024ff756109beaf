import Foundation

/// An object's uniqueID on the wire: a JSON integer or a JSON string, as the object's type has it.
public enum SyncID: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    case integer(Int64)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let integer = try? single.decode(Int64.self) {
            self = .integer(integer)
        } else if let text = try? single.decode(String.self) {
            self = .string(text)
        } else {
            throw DecodingError.dataCorruptedError(in: single, debugDescription: "an object ID is an integer or a string")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try single.encode(value)
        case .string(let value): try single.encode(value)
        }
    }

    /// The ID as JSON (`42`, `"feed.xml"`): how a server keys it, telling an integer from the
    /// string of its digits.
    public var json: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): SyncID.quoted(value)
        }
    }

    /// Reads ``json`` back.
    public init?(json: String) {
        if json.hasPrefix("\"") {
            guard let text = SyncID.unquoted(json) else { return nil }
            self = .string(text)
        } else if let value = Int64(json) {
            self = .integer(value)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): value
        }
    }

    public static func < (lhs: SyncID, rhs: SyncID) -> Bool { lhs.json < rhs.json }

    /// A JSON string literal of `text`.
    private static func quoted(_ text: String) -> String {
        var json = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case _ where scalar.value < 0x20: json += "\\u" + SyncStamp.hex(UInt64(scalar.value), digits: 4)
            default: json.unicodeScalars.append(scalar)
            }
        }
        return json + "\""
    }

    private static func unquoted(_ json: String) -> String? {
        guard let data = json.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) as? String
    }
}
