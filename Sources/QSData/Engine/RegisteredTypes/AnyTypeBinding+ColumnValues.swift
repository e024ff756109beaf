/// Checking the values of a bulk update against a type's model.
extension AnyTypeBinding {
    /// Checks the column names against the model and converts the values to the columns' types.
    func columnValues(_ values: [String: any QSColumnValue]) throws -> [(name: String, value: SQLValue)] {
        guard !values.isEmpty else {
            throw QSDataError.unknownColumn(type: description.name, column: "(none: an update must set at least one column)")
        }
        return try values.keys.sorted().map { name in
            guard name != "uniqueID", let property = description.property(named: name), let value = values[name] else {
                throw QSDataError.unknownColumn(type: description.name, column: name)
            }
            guard type(of: value).canStore(property.type) else {
                throw QSDataError.cannotWrite(
                    type: description.name, column: name,
                    expected: property.type.rawValue, found: String(describing: type(of: value)))
            }
            return (name, try value.columnValue(as: property.type))
        }
    }
}
