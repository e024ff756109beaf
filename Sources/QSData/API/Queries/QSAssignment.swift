/// One column set by a bulk update, made from a ``QSColumn``: `Task.columns.done.to(true)`.
public struct QSAssignment<Root: QSDataObject> {
    /// The column's name.
    public let name: String
    /// The value it is set to.
    public let value: any QSColumnValue

    init(name: String, value: any QSColumnValue) {
        self.name = name
        self.value = value
    }

    /// The assignments as the store's bulk updates take them, by column name; a column set
    /// twice keeps the last value.
    static func values(_ assignments: [QSAssignment]) -> [String: any QSColumnValue] {
        Dictionary(assignments.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
