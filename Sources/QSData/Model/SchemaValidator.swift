/// Checks the model against the real schema: every table and column it names must exist, and
/// every declared search index must be in place.
struct SchemaValidator {
    let model: QSDataModel

    /// Every mismatch, one line each; empty when the model fits the schema.
    func problems(in connection: SQLiteConnection) throws -> [String] {
        var problems: [String] = []
        let searchIndexes = SearchIndexValidator(connection: connection)
        var columnsByTable: [String: Set<String>] = [:]
        func columns(of table: String) throws -> Set<String> {
            if let known = columnsByTable[table] { return known }
            let rows = try connection.fetchRows("SELECT name FROM pragma_table_info(?)", [.text(table)])
            let names = Set(rows.compactMap { row -> String? in
                if case .text(let name) = row.first { return name }
                return nil
            })
            columnsByTable[table] = names
            return names
        }

        for type in model.objectTypes.values.sorted(by: { $0.name < $1.name }) {
            let tableColumns = try columns(of: type.table)
            if tableColumns.isEmpty {
                problems.append("\(type.name): table '\(type.table)' does not exist")
            } else {
                for property in type.properties where !tableColumns.contains(property.name) {
                    problems.append("\(type.name).\(property.name): table '\(type.table)' has no column '\(property.name)'")
                }
            }
            for relationship in type.relationships {
                let lookupColumns = try columns(of: relationship.table)
                if lookupColumns.isEmpty {
                    problems.append("\(type.name).\(relationship.name): lookup table '\(relationship.table)' does not exist")
                    continue
                }
                for column in [relationship.parentIDColumn, relationship.childIDColumn, relationship.indexColumn]
                where !lookupColumns.contains(column) {
                    problems.append("\(type.name).\(relationship.name): lookup table '\(relationship.table)' has no column '\(column)'")
                }
            }
            problems += try searchIndexes.problems(for: type)
        }
        return problems
    }
}
