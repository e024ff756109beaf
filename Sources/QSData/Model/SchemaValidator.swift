/// Checks the model against the real schema: every table and column it names must exist, and
/// every declared search index must be in place.
struct SchemaValidator {
    let model: QSDataModel

    /// Every mismatch, one line each; empty when the model fits the schema.
    func problems(in connection: SQLiteConnection) throws -> [String] {
        var problems: [String] = []
        let searchIndexes = SearchIndexValidator(connection: connection)
        var columnsByTable: [String: [String: Bool]] = [:]
        /// The table's columns, each with whether it may hold NULL.
        func columns(of table: String) throws -> [String: Bool] {
            if let known = columnsByTable[table] { return known }
            let rows = try connection.fetchRows("SELECT name, \"notnull\" FROM pragma_table_info(?)", [.text(table)])
            var columns: [String: Bool] = [:]
            for row in rows {
                if case .text(let name) = row[0] { columns[name] = row[1] == .integer(0) }
            }
            columnsByTable[table] = columns
            return columns
        }

        for type in model.objectTypes.values.sorted(by: { $0.name < $1.name }) {
            let tableColumns = try columns(of: type.table)
            if tableColumns.isEmpty {
                problems.append("\(type.name): table '\(type.table)' does not exist")
            } else {
                for property in type.properties {
                    guard let allowsNull = tableColumns[property.name] else {
                        problems.append("\(type.name).\(property.name): table '\(type.table)' has no column '\(property.name)'")
                        continue
                    }
                    problems += nullabilityProblems(property, of: type, allowsNull: allowsNull)
                }
            }
            for relationship in type.relationships {
                let lookupColumns = try columns(of: relationship.table)
                if lookupColumns.isEmpty {
                    problems.append("\(type.name).\(relationship.name): lookup table '\(relationship.table)' does not exist")
                    continue
                }
                for column in [relationship.parentIDColumn, relationship.childIDColumn, relationship.indexColumn]
                where lookupColumns[column] == nil {
                    problems.append("\(type.name).\(relationship.name): lookup table '\(relationship.table)' has no column '\(column)'")
                }
            }
            problems += try searchIndexes.problems(for: type)
        }
        return problems
    }

    /// An optional property needs a column that may hold NULL. A generated type's other
    /// properties are not optionals in Swift, so their columns must be NOT NULL.
    private func nullabilityProblems(_ property: QSPropertyDescription, of type: QSObjectDescription, allowsNull: Bool) -> [String] {
        let place = "\(type.name).\(property.name): the model says '\(property.typeSpelling)'"
        if property.isOptional, !allowsNull {
            return ["\(place), which may be NULL, but column '\(property.name)' of '\(type.table)' is NOT NULL"]
        }
        if !property.isOptional, allowsNull, type.generation != nil, property.name != "uniqueID" {
            return ["\(place), never NULL, but column '\(property.name)' of '\(type.table)' allows NULL: write '\(property.typeSpelling)?' or declare the column NOT NULL"]
        }
        return []
    }
}
