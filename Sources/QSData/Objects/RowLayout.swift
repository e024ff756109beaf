/// The columns of one object type, in the order the store selects and inserts them.
///
/// Column 0 is always `uniqueID`. Built once per type at registration; immutable afterwards.
@usableFromInline
final class RowLayout: Sendable {
    @usableFromInline let typeName: String
    @usableFromInline let names: [String]
    @usableFromInline let types: [QSPropertyType]
    let relationshipNames: [String]
    private let indexByName: [String: Int]

    init(description: QSObjectDescription) {
        typeName = description.name
        names = description.properties.map(\.name)
        types = description.properties.map(\.type)
        relationshipNames = description.relationships.map(\.name)
        indexByName = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    }

    /// The position of the column named `name`, or nil when the type has no such property.
    @usableFromInline func index(of name: String) -> Int? {
        indexByName[name]
    }

    var count: Int { names.count }
}

/// Where a read found its column, remembered so the next row finds it without a search.
@usableFromInline
struct LearnedColumn {
    @usableFromInline let name: String
    @usableFromInline let index: Int

    @usableFromInline init(name: String, index: Int) {
        self.name = name
        self.index = index
    }
}

/// The read order a row has learned, and where the current row's reads have got to.
@usableFromInline
struct ReadState {
    @usableFromInline var learned: [LearnedColumn] = []
    @usableFromInline var position = 0

    init() {}
}
