/// Reading rows into instances, on the database queue.
extension TypeBinding {
    /// Fetches the rows `request` selects, with their relationships, reusing cached instances.
    ///
    /// Statements: one per relationship for its lookup rows, at most one per relationship for
    /// children not cached, and one for the rows themselves, whatever the number of rows.
    func fetch(_ request: FetchRequest, in context: QueueContext) throws -> [Object] {
        let tail = request.tail
        // 1. Each relationship's (parent, child) pairs, then the children they name.
        var related: [String: any ChildrenByParent] = [:]
        for relationship in description.relationships {
            guard let childBinding = context.registry.binding(named: relationship.childType),
                  let relationshipSQL = sql.relationships[relationship.name]
            else { continue }
            let statement = try context.connection.statement(relationshipSQL.pairs(parentsWhere: tail))
            try statement.bind(request.arguments)
            var pairs: [(parent: QSAnyID, child: QSAnyID)] = []
            while try statement.step() {
                pairs.append((Self.anyID(statement, 0), Self.anyID(statement, 1)))
            }
            statement.reset()
            related[relationship.name] = try childBinding.childrenByParent(pairs: pairs, in: context)
        }

        // 2. The rows, each made into an instance unless a live one exists.
        let statement = try context.connection.statement(sql.select + tail)
        try statement.bind(request.arguments)
        defer { statement.reset() }
        let row = QSRow(layout: layout, statement: statement)
        if cache.policy == .none && related.isEmpty {
            return try Object._instances(from: QSRowReader(row: row, statement: statement))
        }
        row.relatedObjects = related
        let caches = cache.policy != .none && !request.bypassesCache
        let needsID = caches || !related.isEmpty
        var objects: [Object] = []
        while try statement.step() {
            if needsID {
                let id = try Object.UniqueID.read(from: row, at: 0)
                if caches, let cached = cache.object(for: id) {
                    objects.append(cached)
                    continue
                }
                row.advance(parentID: id.anyID)
            } else {
                row.advance(parentID: .integer(0))
            }
            var object = try Object(row: row)
            object.awakeFromFetch()
            if caches { cache.insert(object) }
            objects.append(object)
        }
        return objects
    }

    func childrenByParent(pairs: [(parent: QSAnyID, child: QSAnyID)], in context: QueueContext) throws -> any ChildrenByParent {
        var childrenByID: [QSAnyID: Object] = [:]
        var missing: [QSAnyID] = []
        var seen: Set<QSAnyID> = []
        for pair in pairs where seen.insert(pair.child).inserted {
            if let id = Object.UniqueID(anyID: pair.child), let cached = cache.object(for: id) {
                childrenByID[pair.child] = cached
            } else {
                missing.append(pair.child)
            }
        }
        if !missing.isEmpty {
            for child in try fetch(.ids(missing), in: context) {
                childrenByID[child.uniqueID.anyID] = child
            }
        }
        var childrenByParent: [QSAnyID: [Object]] = [:]
        for pair in pairs {
            // A lookup row whose child was deleted (an orphan row) is skipped.
            guard let child = childrenByID[pair.child] else { continue }
            childrenByParent[pair.parent, default: []].append(child)
        }
        return ChildrenByParentOf(childrenByParent: childrenByParent)
    }

    private static func anyID(_ statement: SQLiteStatement, _ index: Int32) -> QSAnyID {
        switch statement.value(at: index) {
        case .integer(let value): return .integer(value)
        case .text(let value): return .string(value)
        case let other: return .string(other.description)
        }
    }
}
