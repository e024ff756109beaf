/// A uniqued or cached class that records which of its properties the app set since the store
/// last read or wrote them, so that a save knows what to write without looking.
///
/// For every other instance it holds, the store keeps a hash of what the row holds; a save whose
/// encoded row hashes otherwise reads the row and writes the columns that differ. An instance
/// that says what changed needs neither: holding many of them costs a little less memory, saving
/// one reads nothing, and an unsaved edit always survives another writer's change to its row.
///
/// Mark a property's name (its column's name in the model) whenever the app sets it to a new
/// value. A property observer does that; generated model types do it for you:
/// ```swift
/// final class Note: QSChangeTrackingObject {
///     let uniqueID: Int64
///     var text: String { didSet { changedProperties.insert("text", from: oldValue, to: text) } }
///     var changedProperties = QSChangedProperties()
///
///     init(uniqueID: Int64, text: String) {
///         self.uniqueID = uniqueID
///         self.text = text
///     }
///
///     init(row: QSRow) throws {
///         uniqueID = try row["uniqueID"]
///         text = try row["text"]
///     }
///
///     func update(from row: QSRow) throws {
///         text = try row["text"]
///     }
///
///     func encode(to row: inout QSRowEncoder) {
///         row["uniqueID"] = uniqueID
///         row["text"] = text
///     }
/// }
/// ```
/// The store reads and clears the marks when it encodes the instance for a save, and writes the
/// marked columns of a row it knows; a row it does not know (a new object, or one whose save
/// rolled back) is written whole. When the store itself calls `update(from:)` (a bulk update, a
/// change from another writer), the marks are what they were before the call. A column left
/// unmarked after the app set it is not saved: mark every stored property `encode(to:)` writes.
///
/// Once every earlier write has settled, a save outside a batch does not even encode a held
/// instance that marked nothing, when the type has no relationships and no other type that keeps
/// instances reads its table: its row already holds what it shows.
/// Relationships need no mark (the store compares their children), and a mark that names one is
/// ignored; a mark that names neither a column nor a relationship fails the save with
/// ``QSDataError/unknownColumn(type:column:)``.
///
/// When another writer changes a row, a marked column keeps the app's value in memory and the
/// next save writes it; every other column takes the row's.
public protocol QSChangeTrackingObject: QSUpdatableObject {
    /// The properties set since the store last read or wrote the instance: kept by the type,
    /// read and cleared by the store.
    var changedProperties: QSChangedProperties { get set }
}

/// The names of the properties an instance set since the store last read or wrote it (see
/// ``QSChangeTrackingObject``).
///
/// Empty, it costs one pointer and no allocation. An instance marks a few names between two
/// saves, so they are kept in a short list and looked through, not hashed: a name written as a
/// literal is found by comparing two words.
public struct QSChangedProperties: Sendable, Equatable {
    /// Each name once, in the order first noted.
    @usableFromInline private(set) var names: [String] = []

    /// No property changed.
    @inlinable public init() {}

    /// Notes that the property `name` (its column's name in the model) changed.
    public mutating func insert(_ name: String) {
        if !contains(name) { names.append(name) }
    }

    /// Notes that the property `name` changed, unless `newValue` equals `oldValue`: for a
    /// property observer, so that setting a property to the value it has (re-importing the same
    /// data, say) writes nothing.
    /// ```swift
    /// var title: String { didSet { changedProperties.insert("title", from: oldValue, to: title) } }
    /// ```
    @inlinable
    public mutating func insert<Value: Equatable>(_ name: String, from oldValue: Value, to newValue: Value) {
        if oldValue != newValue { insert(name) }
    }

    /// Notes that the property `name` changed: a value that can't be compared counts as changed
    /// whenever it is set.
    @inlinable
    public mutating func insert<Value>(_ name: String, from oldValue: Value, to newValue: Value) {
        insert(name)
    }

    /// Adds every property `other` notes.
    public mutating func formUnion(_ other: QSChangedProperties) {
        for name in other.names { insert(name) }
    }

    /// Whether the property `name` changed.
    public func contains(_ name: String) -> Bool {
        names.contains { isSameName($0, name) }
    }

    /// Whether no property changed.
    public var isEmpty: Bool { names.isEmpty }

    /// The names noted, in no particular order.
    public var propertyNames: Set<String> { Set(names) }

    /// The same names, in whatever order each noted them.
    public static func == (lhs: QSChangedProperties, rhs: QSChangedProperties) -> Bool {
        lhs.names.count == rhs.names.count && lhs.names.allSatisfy(rhs.contains)
    }
}
