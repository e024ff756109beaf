/// Writes one relationship's lookup rows for the parents of a save, with its statements
/// prepared once per save rather than once per parent.
struct LookupWriter {
    private let connection: SQLiteConnection
    private let insert: SQLiteStatement
    private let childrenOfParent: SQLiteStatement
    private let deleteForParent: SQLiteStatement

    init(sql: RelationshipSQL, connection: SQLiteConnection) throws {
        self.connection = connection
        insert = try connection.statement(sql.insert)
        childrenOfParent = try connection.statement(sql.childrenOfOneParent)
        deleteForParent = try connection.statement(sql.deleteForOneParent)
    }

    /// Makes the parent's lookup rows list `childIDs` in order. A new parent has none yet; an
    /// existing one is rewritten only when its children or their order changed.
    /// Returns whether any row changed.
    func write(_ childIDs: [QSAnyID], parentID: QSAnyID, parentIsNew: Bool) throws -> Bool {
        let parent = parentID.sqlValue
        if !parentIsNew {
            if try storedChildren(of: parent) == childIDs.map(\.sqlValue) { return false }
            try deleteForParent.run([parent])
        }
        for (index, childID) in childIDs.enumerated() {
            insert.reset()
            try insert.bind(parent, at: 1)
            try insert.bind(childID.sqlValue, at: 2)
            try insert.bind(.integer(Int64(index)), at: 3)
            try insert.step()
        }
        insert.reset()
        return !parentIsNew || !childIDs.isEmpty
    }

    private func storedChildren(of parent: SQLValue) throws -> [SQLValue] {
        try childrenOfParent.bind([parent])
        defer { childrenOfParent.reset() }
        var children: [SQLValue] = []
        while try childrenOfParent.step() {
            children.append(childrenOfParent.value(at: 0))
        }
        return children
    }
}
