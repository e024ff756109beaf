/// A model type the store can fetch and save: a struct or a final class with a `uniqueID`.
///
/// The type reads its properties from a row by column name and writes them back the same way;
/// the store checks at registration that what it reads and writes is what the data model says.
/// ```swift
/// struct Tag: QSDataObject {
///     let uniqueID: String
///     var name: String
///
///     func encode(to row: inout QSRowEncoder) {
///         row["uniqueID"] = uniqueID
///         row["name"] = name
///     }
/// }
///
/// extension Tag {
///     init(row: QSRow) throws {
///         self.init(uniqueID: try row["uniqueID"], name: try row["name"])
///     }
/// }
/// ```
/// A struct reads its row into its memberwise initializer (kept by declaring `init(row:)` in an
/// extension): assigning the properties one by one between throwing reads makes Swift copy the
/// finished value once more on every row fetched.
/// Rows are read on the store's background queue; the objects are then handed to the main actor,
/// where the app uses them. `init(row:)` should only read the row: it runs off the main actor.
public protocol QSDataObject: SendableMetatype {
    /// `Int64` or `String`: the table's primary key.
    associatedtype UniqueID: QSUniqueID

    /// The name of this type in the data model. Defaults to the Swift type's name.
    static var modelName: String { get }

    /// The primary key, unique within the type's table.
    var uniqueID: UniqueID { get }

    /// Creates an instance from a row holding every property (and relationship) of the type.
    init(row: QSRow) throws

    /// Writes every property (and relationship) of the type into `row`.
    func encode(to row: inout QSRowEncoder)

    /// Called once after the instance is created from the database. Does nothing by default.
    mutating func awakeFromFetch()

    /// Makes an instance of every remaining row. QSData implements it; types never do.
    ///
    /// It is a requirement rather than a helper so that its loop is compiled for each conforming
    /// type, where `init(row:)` and the column reads inline: this is the fetch's hot path.
    static func _instances(from rows: QSRowReader) throws -> [Self]
}

extension QSDataObject {
    public static var modelName: String { String(describing: Self.self) }
    /// Inlinable, so that the fetch loop compiled for each type sees that it does nothing.
    @inlinable public mutating func awakeFromFetch() {}

    @inlinable
    public static func _instances(from rows: QSRowReader) throws -> [Self] {
        var instances: [Self] = []
        while try rows.next() {
            var instance = try Self(row: rows.row)
            instance.awakeFromFetch()
            instances.append(instance)
        }
        return instances
    }
}

/// A class whose instances are shared (uniqued or cached) and therefore patched in place.
///
/// When a bulk update, or a save of another type on the same table, changes a row whose instance
/// is alive, the store calls `update(from:)` with a row holding all of the type's properties
/// (or, when the type sets columns alone, `update(column:from:)` for each column changed), so
/// that everyone holding the instance sees the change. Uniqued and permanently cached classes
/// must conform.
public protocol QSUpdatableObject: QSDataObject, AnyObject {
    /// Sets every stored property except `uniqueID` from `row`, as `init(row:)` does.
    func update(from row: QSRow) throws

    /// Sets the one property of the column `column` from `row`, and returns true; returns false,
    /// changing nothing, for a column the type doesn't set alone.
    ///
    /// A bulk update that sets a few columns of many held instances (marking 10,000 articles
    /// read) calls this for each column it set, rather than encoding every instance and calling
    /// ``update(from:)`` with its whole row, which costs several times as much. When it returns
    /// false the store does that instead. The answer must depend on `column` alone. The default
    /// sets nothing; generated model types set every column.
    /// ```swift
    /// func update(column: String, from row: QSRow) throws -> Bool {
    ///     switch column {
    ///     case "read": read = try row["read"]
    ///     case "title": title = try row["title"]
    ///     default: return false
    ///     }
    ///     return true
    /// }
    /// ```
    func update(column: String, from row: QSRow) throws -> Bool
}

extension QSUpdatableObject {
    /// Sets nothing alone: the store calls ``update(from:)`` with the whole row instead.
    public func update(column: String, from row: QSRow) throws -> Bool { false }
}
