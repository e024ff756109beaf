import Foundation

/// A parsed JSON value: what the API layer hands up and the sync objects read. Sendable and
/// typed, so nothing above the sync objects handles `Any` or `NSNull`.
///
/// Numbers keep their kind: an integer literal is ``integer(_:)`` (note IDs are exact up to
/// 2^53 and beyond), anything with a fraction or exponent is ``double(_:)``.
public enum VSJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([VSJSON])
    case object([String: VSJSON])

    /// Parses JSON text.
    public static func parse(_ data: Data) throws -> VSJSON {
        try JSONDecoder().decode(VSJSON.self, from: data)
    }

    /// Compact JSON text, keys sorted, slashes unescaped.
    public func data() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The value under `key` of an object; nil for anything else or a missing key.
    public subscript(key: String) -> VSJSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// A string; nil for anything else (null included).
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// An integer, also from a double with no fraction; nil otherwise.
    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .double(let value) where value.rounded() == value && abs(value) < 9.2e18: Int64(value)
        default: nil
        }
    }

    /// A boolean, also from a number (non-zero is true); nil for null and anything else.
    public var bool: Bool? {
        switch self {
        case .bool(let value): value
        case .integer(let value): value != 0
        case .double(let value): value != 0
        default: nil
        }
    }

    /// The elements of an array; nil for anything else.
    public var array: [VSJSON]? {
        if case .array(let value) = self { return value }
        return nil
    }
}

extension VSJSON: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([VSJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: VSJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
