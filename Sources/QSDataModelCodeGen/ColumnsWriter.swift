import QSData

/// Writes one generated type's typed columns: an extension with a `columns` value holding a
/// ``QSColumn`` for each column of the table, which the app builds conditions, orderings and bulk
/// updates from, checked by the compiler:
///
/// ```swift
/// extension Book {
///     public static let columns = Columns()
///     public struct Columns: Sendable {
///         public let title = QSColumn<Book, String>("title", type: .string)
///     }
/// }
/// ```
struct ColumnsWriter {
    let shape: GeneratedTypeShape
    let access: AccessLevel

    func write(to source: inout SourceWriter) {
        let typeName = shape.name
        source.block("extension \(typeName) {") { body in
            body.line("/// The columns of table `\(shape.description.table)`, typed, for conditions, orderings and bulk")
            body.line("/// updates the compiler checks: `\(typeName).columns.\(exampleColumn) == …`.")
            body.line("\(access.prefix)static let columns = Columns()")
            body.line()
            body.line("/// One ``QSColumn`` for each column of `\(typeName)`, by its Swift name.")
            body.block("\(access.prefix)struct Columns: Sendable {") { columns in
                for member in shape.members where !member.isRelationship {
                    guard let property = shape.description.properties.first(where: { $0.name == member.modelName }) else { continue }
                    columns.line("\(access.prefix)let \(member.swiftName) = QSColumn<\(typeName), \(member.swiftType)>"
                        + "(\"\(member.modelName)\", type: .\(property.type.rawValue))")
                }
            }
        }
    }

    /// The Swift name of the first column after the uniqueID, for the documentation's example.
    private var exampleColumn: String {
        shape.members.first { !$0.isRelationship && $0.modelName != "uniqueID" }?.swiftName ?? "uniqueID"
    }
}
