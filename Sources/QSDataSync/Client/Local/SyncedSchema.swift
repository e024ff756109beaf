import QSData

/// What of the store's model syncs: every table a type marked `synced` is stored in, with the
/// columns and relationships that travel (all but the types' local properties).
struct SyncedSchema: Sendable {
    let tables: [String: SyncedTable]

    init(model: QSDataModel) {
        var tables: [String: SyncedTable] = [:]
        let descriptions = model.objectTypes.values.filter(\.synced).sorted { $0.name < $1.name }
        for description in descriptions {
            var table = tables[description.table] ?? SyncedTable(name: description.table, uniqueIDType: description.uniqueIDType)
            table.uniqueKey = table.uniqueKey ?? description.uniqueKey
            table.groupColumn = table.groupColumn ?? description.syncGroup
            table.blobs.merge(description.syncedBlobs) { first, _ in first }
            for property in description.properties.dropFirst() where !description.localProperties.contains(property.name) {
                if !table.columns.contains(where: { $0.name == property.name }) { table.columns.append(property) }
            }
            for relationship in description.relationships where !description.localProperties.contains(relationship.name) {
                if !table.lists.contains(where: { $0.name == relationship.name }) {
                    table.lists.append(relationship)
                    table.childTables[relationship.name] = model[relationship.childType]?.table
                }
            }
            tables[description.table] = table
        }
        // A deleted row's lookup rows go with it, both where it is the parent and where it is a
        // child (of any type, synced or not).
        for description in model.objectTypes.values {
            for relationship in description.relationships {
                guard let childTable = model[relationship.childType]?.table, tables[childTable] != nil else { continue }
                let reference = SyncedTable.ChildReference(lookupTable: relationship.table, childIDColumn: relationship.childIDColumn)
                tables[childTable]?.childReferences.appendOnce(reference)
            }
            guard tables[description.table] != nil else { continue }
            for relationship in description.relationships {
                let reference = SyncedTable.ParentReference(lookupTable: relationship.table, parentIDColumn: relationship.parentIDColumn)
                tables[description.table]?.parentReferences.appendOnce(reference)
            }
        }
        // Only a synced child table's rows come and go with sync.
        let syncedTables = Set(tables.keys)
        for name in syncedTables {
            let children = tables[name]?.childTables ?? [:]
            tables[name]?.childTables = children.filter { syncedTables.contains($0.value) }
        }
        self.tables = tables
    }

    var isEmpty: Bool { tables.isEmpty }
    /// Whether some synced type shares objects in groups.
    var sharesGroups: Bool { tables.values.contains { $0.groupColumn != nil } }
    var tableNames: [String] { tables.keys.sorted() }
}

/// One synced table.
struct SyncedTable: Sendable {
    struct ChildReference: Sendable, Equatable {
        let lookupTable: String
        let childIDColumn: String
    }

    struct ParentReference: Sendable, Equatable {
        let lookupTable: String
        let parentIDColumn: String
    }

    let name: String
    let uniqueIDType: QSPropertyType
    /// The synced columns, uniqueID left out.
    var columns: [QSPropertyDescription] = []
    /// The string column whose value names one object (see ``UniqueKeys``), if the model gives one.
    var uniqueKey: String?
    /// The string column naming the group an object is shared in, if the model gives one.
    var groupColumn: String?
    /// The columns synced as blobs, and how each arrives.
    var blobs: [String: QSBlobLoading] = [:]
    /// The synced to-many relationships.
    var lists: [QSRelationshipDescription] = []
    /// The table of each relationship's children, by relationship name, where that table syncs.
    var childTables: [String: String] = [:]
    /// Lookup tables naming this table's rows as children, and as parents.
    var childReferences: [ChildReference] = []
    var parentReferences: [ParentReference] = []

    init(name: String, uniqueIDType: QSPropertyType) {
        self.name = name
        self.uniqueIDType = uniqueIDType
    }

    /// The names the change log may give a synced change: the columns, then the relationships.
    /// (A relationship travels as parts of its own, one pair per child: see ``SyncListPart``.)
    var partNames: [String] { columnNames + lists.map(\.name) }

    var columnNames: [String] { columns.map(\.name) }

    func column(named name: String) -> QSPropertyDescription? { columns.first { $0.name == name } }

    /// Whether `name` names a synced column, or a part of a synced list.
    func syncs(_ name: String) -> Bool {
        column(named: name) != nil || SyncListPart(name: name).map { list(named: $0.list) != nil } ?? false
    }
    func list(named name: String) -> QSRelationshipDescription? { lists.first { $0.name == name } }
}

extension Array where Element: Equatable {
    mutating func appendOnce(_ element: Element) {
        if !contains(element) { append(element) }
    }
}
