/// The type of a property as the data model declares it.
///
/// Values are stored in SQLite as: `int64` and `boolean` INTEGER, `double` REAL, `string` TEXT,
/// `date` REAL seconds since 1970, `data` BLOB, `plist` a binary property list BLOB, `json` JSON TEXT.
public enum QSPropertyType: String, Sendable, CaseIterable {
    case int64
    case double
    case boolean
    case string
    case date
    case data
    /// A structured value (array, dictionary, `Codable` type) stored as a binary property list.
    case plist
    /// A structured value (array, dictionary, `Codable` type) stored as JSON text.
    case json
}
