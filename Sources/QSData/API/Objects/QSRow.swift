import CSQLite
import Foundation

/// One row of a model type's table, as `init(row:)` and `update(from:)` read it.
///
/// Read a property by its column name; the Swift type you assign to decides the conversion:
/// ```swift
/// text = try row["text"]                // String; throws if the column is NULL
/// thumbnailID = try row["thumbnailID"]  // String?: NULL becomes nil
/// tags = try row.related("tags")        // the ordered children of a relationship
/// ```
/// A row is only valid inside the call it is passed to. Name lookups are cheap: the row learns
/// the order in which a type reads its columns on the first row and follows it after that.
public final class QSRow {
    @usableFromInline let layout: RowLayout
    /// The statement's SQLite handle, read directly so that reading a column costs no
    /// reference counting; nil for a row made of values.
    @usableFromInline let handle: OpaquePointer?
    /// The current row's value in each column, asked of the statement the first time the column
    /// is read and kept until the row advances (see ``sqliteValue(at:)``).
    @usableFromInline let columnValues: UnsafeMutablePointer<OpaquePointer?>
    @usableFromInline let columnCount: Int
    // The stored properties read for every row skip Swift's dynamic exclusivity checks, which
    // cost more than the reads themselves: a row is used by one thread, one access at a time.
    @usableFromInline @exclusivity(unchecked) var values: [SQLValue]
    /// Where the next read is expected.
    @usableFromInline @exclusivity(unchecked) var state: ReadState
    private let statement: SQLiteStatement?
    /// The children of each relationship, in the order of `layout.relationshipNames`; nil when not loaded.
    @exclusivity(unchecked) var relatedObjects: [ChildrenByParent?] = []
    @usableFromInline @exclusivity(unchecked) var parentID: QSAnyID = .integer(0)
    @exclusivity(unchecked) var probe: TypeProbe?
    /// Decoders for `plist` and `json` columns, made on first use and kept for every row.
    let coders = StructuredCoders()

    /// A row read from a statement positioned on it.
    init(layout: RowLayout, statement: SQLiteStatement) {
        self.layout = layout
        self.statement = statement
        self.handle = statement.handle
        self.values = []
        self.columnCount = Int(sqlite3_column_count(statement.handle))
        self.columnValues = .allocate(capacity: columnCount)
        columnValues.initialize(repeating: nil, count: columnCount)
        self.state = ReadState(capacity: layout.count)
    }

    /// A row made of values, in the layout's column order.
    init(layout: RowLayout, values: [SQLValue], parentID: QSAnyID) {
        self.layout = layout
        self.statement = nil
        self.handle = nil
        self.values = values
        self.parentID = parentID
        self.columnCount = 0
        self.columnValues = .allocate(capacity: 0)
        self.state = ReadState(capacity: layout.count)
    }

    deinit {
        state.release()
        columnValues.deallocate()
    }

    /// Prepares to read the next row of the statement, or the next values, as the child of `parentID`.
    func advance(parentID: QSAnyID) {
        advance()
        self.parentID = parentID
    }

    /// Prepares to read the next row, for types without relationships.
    @inlinable func advance() {
        state.position = 0
        columnValues.update(repeating: nil, count: columnCount)
    }

    /// The name of the model type this row belongs to.
    public var typeName: String { layout.typeName }

    /// Whether the row has a column named `name`.
    public func contains(_ name: String) -> Bool { layout.index(of: name) != nil }

    /// The value of the column `name`, converted to the type the caller asks for.
    @inlinable
    public subscript<Value: QSColumnValue>(_ name: String) -> Value {
        get throws {
            if let index = state.nextLearnedIndex(ifNamed: name) {
                return try Value.read(from: self, at: index)
            }
            return try Value.read(from: self, at: columnIndex(for: name, reading: Value.self))
        }
    }

    /// Finds the column by name and remembers where, so the next row skips the search.
    @usableFromInline
    func columnIndex(for name: String, reading valueType: any QSColumnValue.Type) throws -> Int {
        probe?.recordRead(name, valueType)
        guard let index = layout.index(of: name) else {
            throw QSDataError.missingColumn(type: layout.typeName, column: name)
        }
        if let probe {
            // The registration check reads sample values: give this read one of the kind its
            // Swift type reads, so that a type mismatch is reported rather than thrown.
            if let sample = probe.sampleValue(name, valueType) { values[index] = sample }
        } else {
            state.learn(name, at: index)
        }
        return index
    }

    /// The ordered children of the relationship `name`, which must have been loaded eagerly.
    ///
    /// - Throws: ``QSDataError/relationshipNotLoaded(type:relationship:)`` when the fetch loaded
    ///   only the children's IDs: read such a relationship as ``QSRelated``.
    @inlinable
    public func related<Child: QSDataObject>(_ name: String) throws -> [Child] {
        guard let lookup = try lookup(for: name, Child.self) else { return [] }
        if let children = lookup as? ChildrenByParentOf<Child> { return children.children(of: parentID) }
        if lookup is ChildIDsByParent {
            throw QSDataError.relationshipNotLoaded(type: layout.typeName, relationship: name)
        }
        throw wrongChildType(name, Child.self)
    }

    /// The ordered children of the relationship `name`: their IDs, and the children themselves
    /// when the fetch loaded them.
    public func related<Child: QSDataObject>(_ name: String) throws -> QSRelated<Child> {
        guard let lookup = try lookup(for: name, Child.self) else { return QSRelated([]) }
        if let children = lookup as? ChildrenByParentOf<Child> { return QSRelated(readChildren: children.children(of: parentID)) }
        if let lookup = lookup as? ChildIDsByParent {
            return QSRelated(readIDs: lookup.ids(of: parentID).typed(as: Child.UniqueID.self))
        }
        throw wrongChildType(name, Child.self)
    }

    @usableFromInline
    func lookup<Child: QSDataObject>(for name: String, _ child: Child.Type) throws -> ChildrenByParent? {
        probe?.recordRelationship(name, Child.modelName)
        guard let position = layout.relationshipNames.firstIndex(of: name) else {
            throw QSDataError.unknownRelationship(type: layout.typeName, relationship: name)
        }
        return position < relatedObjects.count ? relatedObjects[position] : nil
    }

    @usableFromInline
    func wrongChildType<Child: QSDataObject>(_ name: String, _ child: Child.Type) -> QSDataError {
        .valueConversion(type: layout.typeName, column: name, expected: "[\(Child.modelName)]", found: "children of another type")
    }

    // MARK: Reading primitives, used by QSColumnValue conformances

    /// Whether the column at `index` is NULL.
    @inlinable @inline(__always) public func isNull(at index: Int) -> Bool {
        storageClass(at: index) == SQLITE_NULL
    }

    /// The column at `index` as an integer.
    @inlinable @inline(__always) public func int64(at index: Int) -> Int64 {
        if handle != nil { return sqlite3_value_int64(sqliteValue(at: index)) }
        return values[index].int64
    }

    /// The column at `index` as a double.
    @inlinable @inline(__always) public func double(at index: Int) -> Double {
        if handle != nil { return sqlite3_value_double(sqliteValue(at: index)) }
        return values[index].double
    }

    /// The column at `index` as text, nil when NULL.
    @inlinable @inline(__always) public func text(at index: Int) -> String? {
        if handle != nil {
            let value = sqliteValue(at: index)
            guard let bytes = sqlite3_value_text(value) else { return nil }
            let count = Int(sqlite3_value_bytes(value))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
        return values[index].text
    }

    /// The column at `index` as bytes, nil when NULL.
    @inlinable public func data(at index: Int) -> Data? {
        if handle != nil {
            let value = sqliteValue(at: index)
            if sqlite3_value_type(value) == SQLITE_NULL { return nil }
            let count = Int(sqlite3_value_bytes(value))
            guard count > 0, let bytes = sqlite3_value_blob(value) else { return Data() }
            return Data(bytes: bytes, count: count)
        }
        return values[index].data
    }

    /// SQLite's storage class of the value in the column at `index` (`SQLITE_INTEGER`,
    /// `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB` or `SQLITE_NULL`): what it holds, not what
    /// the column is declared as. Reads check it, so a value of the wrong kind throws instead
    /// of being converted to 0 or "".
    @inlinable @inline(__always) public func storageClass(at index: Int) -> Int32 {
        if handle != nil { return sqlite3_value_type(sqliteValue(at: index)) }
        return values[index].storageClass
    }

    /// The current row's value in the column at `index`, asked of the statement once per row.
    ///
    /// Asking the statement for a column goes through SQLite's statement API, which checks the
    /// statement and its error state on every call; the value calls after it do not. So a read
    /// costs one statement call where checking the storage class and then reading took two or
    /// three. The value is what SQLite calls unprotected: safe here because a connection is only
    /// ever used by one thread at a time, and valid until the statement steps or resets, which
    /// happens only after the row has been read.
    @inlinable @inline(__always) func sqliteValue(at index: Int) -> OpaquePointer {
        precondition(index >= 0 && index < columnCount, "column \(index) is not in the row")
        if let value = columnValues[index] { return value }
        return loadSQLiteValue(at: index)
    }

    @usableFromInline func loadSQLiteValue(at index: Int) -> OpaquePointer {
        // SQLite answers with a NULL value, never a null pointer, for any column of a row.
        let value: OpaquePointer = sqlite3_column_value(handle, Int32(index))
        columnValues[index] = value
        return value
    }

    /// The error for a stored value that is not of the kind `expected` reads: NULL, or a value
    /// of another storage class.
    public func storageError(at index: Int, expected: Any.Type) -> QSDataError {
        let found: String
        switch storageClass(at: index) {
        case SQLITE_NULL: return nullError(at: index)
        case SQLITE_INTEGER: found = "the integer \(int64(at: index))"
        case SQLITE_FLOAT: found = "the real \(double(at: index))"
        case SQLITE_TEXT: found = "the text '\(text(at: index) ?? "")'"
        default: found = "a blob of \(data(at: index)?.count ?? 0) bytes"
        }
        return conversionError(at: index, expected: expected, found: found)
    }

    /// The model's type for the column at `index`.
    public func propertyType(at index: Int) -> QSPropertyType { layout.types[index] }

    /// The column's name at `index`, for error messages.
    public func columnName(at index: Int) -> String { layout.names[index] }

    /// The error for a NULL where a value is required.
    public func nullError(at index: Int) -> QSDataError {
        .unexpectedNull(type: layout.typeName, column: layout.names[index])
    }

    /// The error for a value that can't become `expected`.
    public func conversionError(at index: Int, expected: Any.Type, found: String) -> QSDataError {
        .valueConversion(type: layout.typeName, column: layout.names[index], expected: String(describing: expected), found: found)
    }
}
