/// Checks the model against the real schema: every table and column it names must exist, and
/// each column's declared type must keep the values of its property's type, and every declared
/// search index must be in place.
struct SchemaValidator {
    let model: QSDataModel

    /// What the check found: the mismatches (empty when the model fits the schema), per object
    /// type the NOT NULL columns without a default that it has no property for, and the tables
    /// whose uniqueID column is their rowid.
    struct Report {
        var problems: [String] = []
        var columnsMissingByType: [String: [String]] = [:]
        var tablesKeyedByRowID: Set<String> = []
    }

    func check(_ connection: SQLiteConnection) throws -> Report {
        var report = Report()
        let searchIndexes = SearchIndexValidator(connection: connection)
        var tables: [String: TableColumns] = [:]
        func columns(of table: String) throws -> TableColumns {
            if let known = tables[table] { return known }
            let read = try TableColumns.read(table, from: connection)
            tables[table] = read
            return read
        }

        for type in model.objectTypes.values.sorted(by: { $0.name < $1.name }) {
            let table = try columns(of: type.table)
            if table.columns.isEmpty {
                report.problems.append("\(type.name): table '\(type.table)' does not exist")
            } else {
                for property in type.properties {
                    guard let column = table.column(named: property.name) else {
                        report.problems.append("\(type.name).\(property.name): table '\(type.table)' has no column '\(property.name)'")
                        continue
                    }
                    if !column.affinity.keeps(property.type) {
                        report.problems.append(
                            "\(type.name).\(property.name): the model says \(property.type.rawValue) but column '\(property.name)' of '\(type.table)' is declared '\(column.declaredType)' (\(column.affinity.rawValue) affinity)")
                    }
                    report.problems += nullabilityProblems(property, of: type, allowsNull: !column.isNotNull)
                }
                if table.uniqueIDIsRowID { report.tablesKeyedByRowID.insert(type.table) }
                let declared = Set(type.properties.map(\.name))
                let missing = table.columns.filter { $0.mustBeGiven && !declared.contains($0.name) }.map(\.name)
                if !missing.isEmpty { report.columnsMissingByType[type.name] = missing }
            }
            for relationship in type.relationships {
                let lookupColumns = try columns(of: relationship.table).names
                if lookupColumns.isEmpty {
                    report.problems.append("\(type.name).\(relationship.name): lookup table '\(relationship.table)' does not exist")
                    continue
                }
                for column in [relationship.parentIDColumn, relationship.childIDColumn, relationship.indexColumn]
                where !lookupColumns.contains(column) {
                    report.problems.append("\(type.name).\(relationship.name): lookup table '\(relationship.table)' has no column '\(column)'")
                }
            }
            report.problems += try searchIndexes.problems(for: type)
        }
        return report
    }

    /// An optional property needs a column that may hold NULL. A generated type's other
    /// properties are not optionals in Swift, so their columns must be NOT NULL.
    private func nullabilityProblems(_ property: QSPropertyDescription, of type: QSObjectDescription, allowsNull: Bool) -> [String] {
        let place = "\(type.name).\(property.name): the model says '\(property.typeSpelling)'"
        if property.isOptional, !allowsNull {
            return ["\(place), which may be NULL, but column '\(property.name)' of '\(type.table)' is NOT NULL"]
        }
        if !property.isOptional, allowsNull, type.isGenerated, property.name != "uniqueID" {
            return ["\(place), never NULL, but column '\(property.name)' of '\(type.table)' allows NULL: write '\(property.typeSpelling)?' or declare the column NOT NULL"]
        }
        return []
    }
}
