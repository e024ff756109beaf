import Foundation

/// A `Codable` value stored in one `plist` or `json` column; the model's property type decides
/// which encoding is used. Arrays and string-keyed dictionaries of `Codable` values already conform.
/// ```swift
/// struct Location: QSStructuredValue { var latitude: Double; var longitude: Double }
/// ```
public protocol QSStructuredValue: QSColumnValue, Codable {}

extension QSStructuredValue {
    public static func read(from row: QSRow, at index: Int) throws -> Self {
        guard let data = row.data(at: index) else { throw row.nullError(at: index) }
        do {
            switch row.propertyType(at: index) {
            case .plist: return try PropertyListDecoder().decode(Self.self, from: data)
            default: return try JSONDecoder().decode(Self.self, from: data)
            }
        } catch {
            throw row.conversionError(at: index, expected: Self.self, found: "\(data.count) bytes that don't decode (\(error))")
        }
    }

    public func columnValue(as type: QSPropertyType) throws -> SQLValue {
        switch type {
        case .plist:
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            return .blob(try encoder.encode(self))
        default:
            return .text(String(decoding: try JSONEncoder().encode(self), as: UTF8.self))
        }
    }

    public static func canStore(_ type: QSPropertyType) -> Bool { type == .plist || type == .json }
}

extension Array: QSColumnValue, QSStructuredValue where Element: Codable {}
extension Dictionary: QSColumnValue, QSStructuredValue where Key == String, Value: Codable {}
