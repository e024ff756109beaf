/// Collects the values of one object for saving, as `encode(to:)` writes them.
///
/// ```swift
/// func encode(to row: inout QSRowEncoder) {
///     row["uniqueID"] = uniqueID
///     row["text"] = text
///     row.setRelated("tags", tags)
/// }
/// ```
/// A column the type never writes is stored as NULL; the store's registration check reports it.
public struct QSRowEncoder {
    @usableFromInline let layout: RowLayout
    @usableFromInline var values: [SQLValue]
    @usableFromInline var learned: [LearnedColumn] = []
    @usableFromInline var cursor = 0
    var relationships = EncodedRelationships()
    @usableFromInline var firstError: (any Error)?
    var probe: TypeProbe?
    /// False when only the column values are wanted (a fetch's snapshot of a fresh instance, whose
    /// lookup rows are known from the read): `setRelated` then keeps nothing.
    @usableFromInline let keepsRelationships: Bool
    /// For an encoder that shares its write order with the type's other saves (see
    /// ``followSavedWriteOrder()``), how much of `learned` came from them.
    private var learnedFromSaves: Int?

    init(layout: RowLayout, keepsRelationships: Bool = true) {
        self.layout = layout
        self.values = Array(filledWith: .null, count: layout.count)
        self.keepsRelationships = keepsRelationships
    }

    /// Starts from the order in which the type's earlier saves wrote their columns, and passes on
    /// what this encoder learns: each save makes an encoder of its own, and a batch of many small
    /// saves would otherwise learn the order, and look up every column by name, once a save.
    mutating func followSavedWriteOrder() {
        learned = layout.savedWriteOrder.withLock { $0 }
        learnedFromSaves = learned.count
    }

    /// Takes the finished values and makes the encoder ready for the next object of the type.
    mutating func finish() throws -> (values: [SQLValue], relationships: EncodedRelationships) {
        try checkFinished()
        let result = (values, relationships)
        startNextObject(clearingValues: true)
        return result
    }

    /// Appends the finished values to `rows`, returns the relationships set, and makes the
    /// encoder ready for the next object of the type, keeping its list of values: a save that
    /// encodes many objects allocates no list per object (see ``EncodedRows``).
    mutating func finish(appendingValuesTo rows: inout [SQLValue]) throws -> EncodedRelationships {
        try checkFinished()
        // Each value moved out, NULL left in its place: no reference counting of the texts.
        for index in values.indices {
            var value = SQLValue.null
            swap(&value, &values[index])
            rows.append(value)
        }
        let related = relationships
        startNextObject(clearingValues: false)
        return related
    }

    /// Hashes the finished values (see ``RowHash``), and makes the encoder ready for the next
    /// object of the type, keeping its list of values: a snapshot of a fetched row allocates
    /// nothing.
    mutating func finishHashing() throws -> RowHash {
        try checkFinished()
        let hash = RowHash(of: values)
        for index in values.indices { values[index] = .null }
        startNextObject(clearingValues: false)
        return hash
    }

    /// Hands the finished values over to `rows`, an empty list, as they are, returns the
    /// relationships set, and leaves the encoder without values until
    /// ``makeReadyForNextObject()``: a save of one object makes no other list for its row.
    mutating func finish(handingValuesTo rows: inout [SQLValue]) throws -> EncodedRelationships {
        assert(rows.isEmpty, "values are handed over to an empty list only")
        try checkFinished()
        swap(&rows, &values)
        let related = relationships
        startNextObject(clearingValues: false)
        return related
    }

    /// Gives the encoder a row of values again, every column NULL, when it handed its last one
    /// over (see ``finish(handingValuesTo:)``).
    mutating func makeReadyForNextObject() {
        if values.isEmpty { values = Array(filledWith: .null, count: layout.count) }
    }

    /// Makes the encoder ready for the next object of the type: no relationship set, and every
    /// column NULL (set afresh when `clearingValues`, or left NULL already by the caller).
    private mutating func startNextObject(clearingValues: Bool) {
        if clearingValues { values = Array(filledWith: .null, count: layout.count) }
        relationships = EncodedRelationships()
        cursor = 0
    }

    /// Passes on the write order learned, and throws the first error `encode(to:)` met, the
    /// encoder made ready for the next object.
    private mutating func checkFinished() throws {
        if let shared = learnedFromSaves, learned.count > shared {
            learnedFromSaves = learned.count
            layout.savedWriteOrder.withLock { [learned] order in
                if order.count < learned.count { order = learned }
            }
        }
        if let firstError {
            self.firstError = nil
            startNextObject(clearingValues: true)
            throw firstError
        }
    }

    /// The value of the column `name`: set it to store a property.
    @inlinable
    public subscript<Value: QSColumnValue>(_ name: String) -> Value? {
        get { currentValue(named: name) }
        set {
            let index: Int
            if cursor < learned.count, isSameName(learned[cursor].name, name) {
                index = learned[cursor].index
                cursor += 1
            } else if let found = columnIndex(for: name, writing: Value.self) {
                index = found
            } else {
                return
            }
            store(newValue, at: index)
        }
    }

    @usableFromInline
    func currentValue<Value: QSColumnValue>(named name: String) -> Value? {
        guard let index = layout.index(of: name) else { return nil }
        let row = QSRow(layout: layout, values: values, parentID: .integer(0))
        return try? Value?.read(from: row, at: index)
    }

    @inlinable
    mutating func store<Value: QSColumnValue>(_ value: Value?, at index: Int) {
        do {
            values[index] = try value.columnValue(as: layout.types[index])
        } catch {
            if firstError == nil {
                firstError = QSDataError.cannotWrite(
                    type: layout.typeName, column: layout.names[index], expected: layout.types[index].rawValue,
                    found: "\(Value.self) (\(error))")
            }
        }
    }

    @usableFromInline
    mutating func columnIndex(for name: String, writing valueType: any QSColumnValue.Type) -> Int? {
        probe?.recordWrite(name, valueType)
        guard let index = layout.index(of: name) else {
            if firstError == nil, probe == nil { firstError = QSDataError.unknownColumn(type: layout.typeName, column: name) }
            return nil
        }
        if probe == nil, cursor == learned.count {
            learned.append(LearnedColumn(name: name, index: index))
            cursor += 1
        }
        return index
    }

    /// Sets the ordered children of the relationship `name`.
    ///
    /// Order is kept exactly. A child that appears more than once keeps its first position only:
    /// a lookup table holds one row per (parent, child).
    @inlinable
    public mutating func setRelated<Child: QSDataObject>(_ name: String, _ children: [Child]) {
        guard keepsRelationships else { return }
        store(name, RelatedChildrenOf(children: children))
    }

    /// Sets the ordered children of the relationship `name` from a ``QSRelated``: its order, and
    /// the children it holds (all when loaded, else the ones added to it) are saved.
    @inlinable
    public mutating func setRelated<Child: QSDataObject>(_ name: String, _ related: QSRelated<Child>) {
        guard keepsRelationships else { return }
        store(name, RelatedChildrenOf(related))
    }

    @usableFromInline
    mutating func store(_ name: String, _ children: some RelatedChildren) {
        probe?.recordRelationship(name, children.childTypeName)
        guard let position = layout.relationshipPosition(of: name) else {
            if firstError == nil, probe == nil {
                firstError = QSDataError.unknownRelationship(type: layout.typeName, relationship: name)
            }
            return
        }
        relationships.set(children, at: position, of: layout.relationshipNames.count)
    }
}
