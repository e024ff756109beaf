/// Reading rows as the type would encode them, for a save that must find which columns of a
/// changed row differ (see ``RowSnapshot``).
extension TypeBinding {
    /// Database queue: the rows `statement` selects (the type's columns, in the layout's order)
    /// with `argument` bound to it, each as a fresh instance of it encodes its columns, with its
    /// uniqueID.
    ///
    /// What SQLite returns is not compared directly: a whole `Double` in a column of NUMERIC
    /// affinity reads back as an integer, and a type may encode a value otherwise than it stores
    /// it. Only the columns are wanted, so every relationship reads as having no children (no
    /// lookup rows are read, no child is made). The instances are not kept.
    func rowsAsEncoded(_ statement: SQLiteStatement, _ argument: SQLValue, in context: QueueContext) throws -> [(id: QSAnyID, values: [SQLValue])] {
        var noChildren: [ChildrenByParent?] = []
        for relationship in description.relationships {
            guard let childBinding = context.registry.binding(named: relationship.childType) else {
                noChildren.append(nil)
                continue
            }
            noChildren.append(relationship.loading == .lazy
                ? ChildIDsByParent(LookupRows())
                : try childBinding.childrenByParent(LookupRows(), through: relationship.name, of: description.name, in: context))
        }
        try statement.bind([argument])
        defer { statement.reset() }
        let row = QSRow(layout: layout, statement: statement)
        row.relatedObjects = noChildren
        var encoder = QSRowEncoder(layout: layout)
        encoder.followSavedWriteOrder()
        var rows: [(id: QSAnyID, values: [SQLValue])] = []
        while try statement.step() {
            row.advance()
            let id = try Object.UniqueID.read(from: row, at: 0).anyID
            row.parentID = id
            try Object(row: row).encode(to: &encoder)
            rows.append((id, try encoder.finish().values))
        }
        return rows
    }
}
