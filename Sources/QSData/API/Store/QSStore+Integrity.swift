/// What ``QSStore/checkIntegrity()`` found. ``isClean`` when nothing.
public struct QSIntegrityReport: Sendable, Equatable, CustomStringConvertible {
    /// Lookup rows of one relationship that refer to a row that does not exist.
    public struct DanglingLookupRows: Sendable, Equatable {
        /// The lookup table.
        public let lookupTable: String
        /// The relationships stored in it, as `Type.relationship`.
        public let relationships: [String]
        /// Rows whose parent row is missing.
        public let missingParents: Int
        /// Rows whose child row is missing.
        public let missingChildren: Int

        public init(lookupTable: String, relationships: [String], missingParents: Int, missingChildren: Int) {
            self.lookupTable = lookupTable
            self.relationships = relationships
            self.missingParents = missingParents
            self.missingChildren = missingChildren
        }
    }

    /// One entry per lookup table (and pair of columns) that has dangling rows.
    public let danglingLookupRows: [DanglingLookupRows]
    /// What `PRAGMA integrity_check` reported, when it was not just "ok".
    public let integrityProblems: [String]
    /// What `PRAGMA foreign_key_check` reported: one line per violating row.
    public let foreignKeyViolations: [String]

    public var isClean: Bool {
        danglingLookupRows.isEmpty && integrityProblems.isEmpty && foreignKeyViolations.isEmpty
    }

    public var description: String {
        guard !isClean else { return "The database is consistent" }
        let dangling = danglingLookupRows.map {
            "\($0.lookupTable) (\($0.relationships.joined(separator: ", "))): \($0.missingParents) rows without their parent, \($0.missingChildren) without their child"
        }
        return (dangling + integrityProblems + foreignKeyViolations).map { "- \($0)" }.joined(separator: "\n")
    }
}

extension QSStore {
    /// Checks that the database agrees with itself: every lookup row of every relationship in
    /// the model refers to an existing parent and child row, and SQLite's own
    /// `PRAGMA integrity_check` and `PRAGMA foreign_key_check` find nothing. Runs after the
    /// writes enqueued before it; reads every lookup table, so it is for tests and diagnostics
    /// rather than for every launch.
    /// ```swift
    /// let report = try await store.checkIntegrity()
    /// #expect(report.isClean, "\(report)")
    /// ```
    public func checkIntegrity() async throws -> QSIntegrityReport {
        let checks = Self.lookupChecks(model: model)
        return try await perform { connection in
            var dangling: [QSIntegrityReport.DanglingLookupRows] = []
            for check in checks {
                let parents = try connection.fetchValue(check.missingParents)
                let children = try connection.fetchValue(check.missingChildren)
                if case .integer(let missingParents) = parents, case .integer(let missingChildren) = children,
                   missingParents + missingChildren > 0 {
                    dangling.append(.init(
                        lookupTable: check.lookupTable, relationships: check.relationships,
                        missingParents: Int(missingParents), missingChildren: Int(missingChildren)))
                }
            }
            let integrity = try connection.fetchRows("PRAGMA integrity_check").map { $0.map(Self.plain).joined(separator: " ") }
            let foreignKeys = try connection.fetchRows("PRAGMA foreign_key_check").map { $0.map(Self.plain).joined(separator: " ") }
            return QSIntegrityReport(
                danglingLookupRows: dangling,
                integrityProblems: integrity == ["ok"] ? [] : integrity,
                foreignKeyViolations: foreignKeys)
        }
    }

    private struct LookupCheck: Sendable {
        let lookupTable: String
        var relationships: [String]
        let missingParents: String
        let missingChildren: String
    }

    /// One check per lookup table and pair of parent and child tables, with its two counts.
    private static func lookupChecks(model: QSDataModel) -> [LookupCheck] {
        var checks: [String: LookupCheck] = [:]
        for owner in model.objectTypes.values.sorted(by: { $0.name < $1.name }) {
            for relationship in owner.relationships {
                guard let child = model[relationship.childType] else { continue }
                let lookup = quoted(relationship.table)
                let missingParents = "SELECT count(*) FROM \(lookup) WHERE \(quoted(relationship.parentIDColumn)) NOT IN (SELECT \(quoted("uniqueID")) FROM \(quoted(owner.table)))"
                let missingChildren = "SELECT count(*) FROM \(lookup) WHERE \(quoted(relationship.childIDColumn)) NOT IN (SELECT \(quoted("uniqueID")) FROM \(quoted(child.table)))"
                let key = missingParents + missingChildren
                checks[key, default: LookupCheck(
                    lookupTable: relationship.table, relationships: [],
                    missingParents: missingParents, missingChildren: missingChildren)].relationships.append("\(owner.name).\(relationship.name)")
            }
        }
        return checks.values.sorted { ($0.lookupTable, $0.relationships[0]) < ($1.lookupTable, $1.relationships[0]) }
    }

    nonisolated private static func plain(_ value: SQLValue) -> String {
        if case .text(let text) = value { return text }
        return value.description
    }
}
