/// What deleting rows of one table involves, worked out once from the model when the store
/// opens: the lookup tables to clean, the relationships whose rule is `deny` or `cascade`, and
/// the types whose instances hold the rows.
struct DeletePlan: Sendable {
    /// One lookup table that refers to the table's rows, as parent, as child or both.
    struct LookupCleanup: Sendable {
        let table: String
        /// One statement for the whole lookup table, bound to the JSON list of deleted IDs as `?1`.
        let delete: String
        /// The relationships in which the deleted rows are children, in the order of the
        /// statement's RETURNING columns: their parents changed.
        let parentsOfDeletedChildren: [(ownerType: String, ownerTable: String)]
    }

    /// A relationship of a type on the table whose rule is `deny`.
    struct Denial: Sendable {
        let ownerType: String
        let relationship: String
        /// The table of the relationship's children.
        let childTable: String
        /// The children the deleted parents list, bound to the JSON list as `?1`.
        let children: String
    }

    /// A relationship of a type on the table whose rule is `cascade`.
    struct Cascade: Sendable {
        let childTable: String
        /// The children of the deleted parents that no parent left in the table still lists in
        /// this relationship; run after the parents' rows are gone, before their lookup rows are.
        let orphanedChildren: String
    }

    let table: String
    let deleteReturningIDs: String
    /// The registered types that read the table: each is told of the deleted IDs.
    let typeNames: [String]
    let lookups: [LookupCleanup]
    let denials: [Denial]
    let cascades: [Cascade]

    static let idList = "SELECT value FROM json_each(?1)"

    /// The plans of every table of the model, by table name.
    static func plans(model: [QSObjectDescription], registeredTypeNames: Set<String>) -> [String: DeletePlan] {
        let tableOfType = Dictionary(model.map { ($0.name, $0.table) }, uniquingKeysWith: { first, _ in first })
        let relationships = model.flatMap { owner in owner.relationships.map { (owner: owner, relationship: $0) } }
        var plans: [String: DeletePlan] = [:]
        for table in Set(model.map(\.table)) {
            let owned = relationships.filter { $0.owner.table == table }
            let asChild = relationships.filter { tableOfType[$0.relationship.childType] == table }
            plans[table] = DeletePlan(
                table: table,
                deleteReturningIDs: "DELETE FROM \(quoted(table)) WHERE \(quoted("uniqueID")) IN (\(idList)) RETURNING \(quoted("uniqueID"))",
                typeNames: model.filter { $0.table == table && registeredTypeNames.contains($0.name) }.map(\.name).sorted(),
                lookups: cleanups(owned: owned.map(\.relationship), asChild: asChild),
                denials: owned.filter { $0.relationship.deleteRule == .deny }.compactMap { owner, relationship in
                    guard let childTable = tableOfType[relationship.childType] else { return nil }
                    return Denial(
                        ownerType: owner.name, relationship: relationship.name, childTable: childTable,
                        children: """
                            SELECT DISTINCT \(quoted(relationship.childIDColumn)) FROM \(quoted(relationship.table)) \
                            WHERE \(quoted(relationship.parentIDColumn)) IN (\(idList))
                            """)
                },
                cascades: owned.filter { $0.relationship.deleteRule == .cascade }.compactMap { _, relationship in
                    guard let childTable = tableOfType[relationship.childType] else { return nil }
                    return Cascade(childTable: childTable, orphanedChildren: orphanedChildren(relationship, parentTable: table))
                })
        }
        return plans
    }

    /// One DELETE per lookup table, whatever the number of relationships that use it.
    private static func cleanups(
        owned: [QSRelationshipDescription], asChild: [(owner: QSObjectDescription, relationship: QSRelationshipDescription)]
    ) -> [LookupCleanup] {
        let lookupTables = Set(owned.map(\.table) + asChild.map(\.relationship.table)).sorted()
        return lookupTables.map { lookup in
            let parentColumns = Set(owned.filter { $0.table == lookup }.map(\.parentIDColumn)).sorted()
            let children = asChild.filter { $0.relationship.table == lookup }
            let childColumns = Set(children.map(\.relationship.childIDColumn)).sorted()
            let conditions = (parentColumns + childColumns).map { "\(quoted($0)) IN (\(idList))" }
            var delete = "DELETE FROM \(quoted(lookup)) WHERE \(conditions.joined(separator: " OR "))"
            if !children.isEmpty {
                delete += " RETURNING " + children.map { quoted($0.relationship.parentIDColumn) }.joined(separator: ", ")
            }
            return LookupCleanup(
                table: lookup, delete: delete,
                parentsOfDeletedChildren: children.map { ($0.owner.name, $0.owner.table) })
        }
    }

    private static func orphanedChildren(_ relationship: QSRelationshipDescription, parentTable: String) -> String {
        let lookup = quoted(relationship.table)
        let parent = quoted(relationship.parentIDColumn)
        let child = quoted(relationship.childIDColumn)
        return """
            SELECT DISTINCT deleted.\(child) FROM \(lookup) AS deleted WHERE deleted.\(parent) IN (\(idList)) \
            AND NOT EXISTS (SELECT 1 FROM \(lookup) AS kept JOIN \(quoted(parentTable)) AS survivor \
            ON survivor.\(quoted("uniqueID")) = kept.\(parent) WHERE kept.\(child) = deleted.\(child))
            """
    }
}
