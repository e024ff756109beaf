/// Writes one generated type's declaration: stored properties, the memberwise initializer,
/// `init(row:)`, `update(from:)` and `update(column:from:)` for classes patched in place, and
/// `encode(to:)`.
struct SwiftTypeWriter {
    let shape: GeneratedTypeShape
    let access: AccessLevel
    let modelFileName: String

    /// Signatures longer than this put each parameter on a line of its own.
    static let lineLimit = 100

    func write(to source: inout SourceWriter) {
        let keyword = shape.isClass ? "final class" : "struct"
        source.line("/// \(summary)")
        source.block("\(access.prefix)\(keyword) \(shape.name): \(shape.conformances.joined(separator: ", ")) {") { body in
            if shape.isRenamed {
                body.line("/// The type's name in \(modelFileName), by which the store knows it.")
                body.line("\(access.prefix)static let modelName = \"\(shape.description.name)\"")
                body.line()
            }
            writeStoredProperties(to: &body)
            body.line()
            writeMemberwiseInitializer(to: &body)
            body.line()
            writeRowInitializer(to: &body)
            if shape.isUpdatable {
                body.line()
                writeUpdate(to: &body)
                if !patchableColumns.isEmpty {
                    body.line()
                    writeColumnUpdate(to: &body)
                }
            }
            body.line()
            writeEncode(to: &body)
        }
    }

    /// The type's line in the documentation: where it comes from and the model's flags.
    private var summary: String {
        let description = shape.description
        let flags = [
            (description.uniqued, "uniqued"), (description.cachePermanently, "cached permanently"),
            (description.fetchAllAtStartup, "fetched at startup"), (description.immutable, "immutable"),
        ].filter(\.0).map(\.1)
        let table = "`\(description.name)` in \(modelFileName): rows of table `\(description.table)`"
        return flags.isEmpty ? table + "." : table + "; " + flags.joined(separator: ", ") + "."
    }

    private func writeStoredProperties(to source: inout SourceWriter) {
        for member in shape.members {
            if let comment = member.comment { source.line("/// \(comment)") }
            let declaration = "\(access.prefix)\(member.binding) \(member.swiftName): \(member.swiftType)"
            if marksChanges(of: member) {
                let reference = reference(to: member)
                source.line(declaration + " { didSet { changedProperties.insert(\"\(member.modelName)\", from: oldValue, to: \(reference)) } }")
            } else {
                source.line(declaration)
            }
        }
        if shape.marksChanges {
            source.line("/// The properties set since the store last read or wrote this instance.")
            source.line("\(access.prefix)var changedProperties = QSChangedProperties()")
        }
    }

    /// Whether setting `member` marks it: a column property the type can change, in a type that
    /// marks its changes (relationships need no mark: the store compares their children).
    private func marksChanges(of member: GeneratedTypeShape.Member) -> Bool {
        shape.marksChanges && !member.isRelationship && member.binding != "let"
    }

    private func writeMemberwiseInitializer(to source: inout SourceWriter) {
        let parameters = shape.members.map { member in
            "\(member.swiftName): \(member.swiftType)" + (member.defaultArgument.map { " = \($0)" } ?? "")
        }
        source.line("/// An instance with the given values, not yet saved.")
        let oneLine = "\(access.prefix)init(\(parameters.joined(separator: ", "))) {"
        if oneLine.count + 4 <= Self.lineLimit {
            source.line(oneLine)
        } else {
            source.line("\(access.prefix)init(")
            source.indented { list in
                for (index, parameter) in parameters.enumerated() {
                    list.line(parameter + (index < parameters.count - 1 ? "," : ""))
                }
            }
            source.line(") {")
        }
        source.indented { body in
            for member in shape.members {
                body.line("self.\(member.swiftName) = \(member.swiftName)")
            }
        }
        source.line("}")
    }

    private func writeRowInitializer(to source: inout SourceWriter) {
        source.line("/// Reads an instance from a row holding every property and relationship.")
        source.block("\(access.prefix)init(row: QSRow) throws {") { body in
            if shape.isClass {
                for member in shape.members { body.line(assignment(member)) }
            } else {
                // A struct passes every read to the memberwise initializer: assigning its stored
                // properties one by one between throwing reads makes Swift copy the finished
                // value once more, which costs a retain and a release of each reference it holds.
                body.line("self.init(")
                body.indented { list in
                    for (index, member) in shape.members.enumerated() {
                        let separator = index < shape.members.count - 1 ? "," : ")"
                        list.line("\(member.swiftName): try \(reading(member))\(separator)")
                    }
                }
            }
        }
    }

    private func writeUpdate(to source: inout SourceWriter) {
        source.line("/// Sets every property but `uniqueID` from a changed row, for the instance everyone holds.")
        source.block("\(access.prefix)func update(from row: QSRow) throws {") { body in
            for member in shape.members where member.modelName != "uniqueID" { body.line(assignment(member)) }
        }
    }

    /// The members a bulk update can set one by one: every column but `uniqueID`.
    private var patchableColumns: [GeneratedTypeShape.Member] {
        shape.members.filter { !$0.isRelationship && $0.modelName != "uniqueID" }
    }

    private func writeColumnUpdate(to source: inout SourceWriter) {
        source.line("/// Sets the property of one column a bulk update changed, for the instance everyone holds.")
        source.block("\(access.prefix)func update(column: String, from row: QSRow) throws -> Bool {") { body in
            body.line("switch column {")
            for member in patchableColumns {
                body.line("case \"\(member.modelName)\": \(assignment(member))")
            }
            body.line("default: return false")
            body.line("}")
            body.line("return true")
        }
    }

    private func writeEncode(to source: inout SourceWriter) {
        source.line("/// Writes every property and relationship into `row`, for saving.")
        source.block("\(access.prefix)func encode(to row: inout QSRowEncoder) {") { body in
            for member in shape.members {
                let value = reference(to: member)
                body.line(member.isRelationship
                    ? "row.setRelated(\"\(member.modelName)\", \(value))"
                    : "row[\"\(member.modelName)\"] = \(value)")
            }
        }
    }

    /// `member = try <its read>`, for the class initializer and `update(from:)`.
    private func assignment(_ member: GeneratedTypeShape.Member) -> String {
        "\(reference(to: member)) = try \(reading(member))"
    }

    /// The expression that reads the member from `row`.
    private func reading(_ member: GeneratedTypeShape.Member) -> String {
        member.isRelationship ? "row.related(\"\(member.modelName)\")" : "row[\"\(member.modelName)\"]"
    }

    /// The member as code inside the type, where the parameters `row` and `column` would hide
    /// members of those names.
    private func reference(to member: GeneratedTypeShape.Member) -> String {
        ["row", "column"].contains(member.swiftName) ? "self.\(member.swiftName)" : member.swiftName
    }
}
