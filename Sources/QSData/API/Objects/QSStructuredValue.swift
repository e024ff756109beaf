import CSQLite
import Foundation

/// A `Codable` value stored in one `plist` or `json` column; the model's property type decides
/// which encoding is used. Arrays and string-keyed dictionaries of `Codable` values already conform.
/// ```swift
/// struct Location: QSStructuredValue { var latitude: Double; var longitude: Double }
/// ```
public protocol QSStructuredValue: QSColumnValue, Codable {}

extension QSStructuredValue {
    public static func read(from row: QSRow, at index: Int) throws -> Self {
        let storage: Int32 = row.propertyType(at: index) == .plist ? SQLITE_BLOB : SQLITE_TEXT
        guard row.storageClass(at: index) == storage, let data = row.data(at: index) else {
            throw row.storageError(at: index, expected: Self.self)
        }
        do {
            switch row.propertyType(at: index) {
            case .plist: return try row.coders.plistDecoder.decode(Self.self, from: data)
            default: return try row.coders.jsonDecoder.decode(Self.self, from: data)
            }
        } catch {
            throw row.conversionError(at: index, expected: Self.self, found: "\(data.count) bytes that don't decode (\(error))")
        }
    }

    public func columnValue(as type: QSPropertyType) throws -> SQLValue {
        switch type {
        case .plist: return .blob(try StructuredCoders.plistEncoder().encode(self))
        default: return .text(String(decoding: try StructuredCoders.jsonEncoder().encode(self), as: UTF8.self))
        }
    }

    public static func canStore(_ type: QSPropertyType) -> Bool { type == .plist || type == .json }
}

extension Array: QSColumnValue, QSStructuredValue where Element: Codable {}
extension Dictionary: QSColumnValue, QSStructuredValue where Key == String, Value: Codable {}

/// Coders for structured columns. Making one costs more than decoding a small value, so a row
/// keeps one of each for all the rows of a fetch, and each thread keeps its own encoders.
final class StructuredCoders {
    private var plist: PropertyListDecoder?
    private var json: JSONDecoder?

    var plistDecoder: PropertyListDecoder {
        if let plist { return plist }
        let decoder = PropertyListDecoder()
        plist = decoder
        return decoder
    }

    var jsonDecoder: JSONDecoder {
        if let json { return json }
        let decoder = JSONDecoder()
        json = decoder
        return decoder
    }

    static func plistEncoder() -> PropertyListEncoder {
        let key = "QSData.plistEncoder"
        if let encoder = Thread.current.threadDictionary[key] as? PropertyListEncoder { return encoder }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        Thread.current.threadDictionary[key] = encoder
        return encoder
    }

    static func jsonEncoder() -> JSONEncoder {
        let key = "QSData.jsonEncoder"
        if let encoder = Thread.current.threadDictionary[key] as? JSONEncoder { return encoder }
        let encoder = JSONEncoder()
        Thread.current.threadDictionary[key] = encoder
        return encoder
    }
}
