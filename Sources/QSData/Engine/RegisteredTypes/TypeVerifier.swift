import Foundation

/// Checks at registration that a Swift type reads and writes what its model description says
/// it runs `init(row:)` on a row of sample values and `encode(to:)` on the result,
/// recording every column and relationship they touch.
struct TypeVerifier<Object: QSDataObject> {
    let description: QSObjectDescription
    let layout: RowLayout

    func problems() -> [String] {
        var problems: [String] = []
        if !Object.UniqueID.canStore(description.uniqueIDType) {
            problems.append("uniqueID is \(Object.UniqueID.self) but the model says \(description.uniqueIDType.rawValue)")
        }
        let isClass = Object.self is AnyObject.Type
        if isClass, description.sharesInstances, !(Object.self is any QSUpdatableObject.Type) {
            problems.append("a uniqued or cached class must conform to QSUpdatableObject, so changes can patch live instances in place")
        }

        let probe = TypeProbe(sampleValue: sampleValue(reading:as:))
        let row = QSRow(layout: layout, values: sampleValues(), parentID: sampleID)
        row.probe = probe
        var instance: Object?
        var initError: (any Error)?
        do {
            instance = try Object(row: row)
        } catch {
            initError = error
        }
        problems += check(probe.reads, relationships: probe.relationshipReads, verb: "init(row:) reads", complete: initError == nil)
        problems += nonOptionalReadsOfOptionalProperties(probe.reads)
        if let initError, !(initError is QSDataError) {
            problems.append("init(row:) threw on sample values, so the rest could not be checked: \(initError)")
        }
        guard let instance else { return problems }

        probe.beginEncoding()
        var encoder = QSRowEncoder(layout: layout)
        encoder.probe = probe
        instance.encode(to: &encoder)
        problems += check(probe.writes, relationships: probe.relationshipWrites, verb: "encode(to:) writes", complete: true)
        return problems
    }

    private func check(_ accesses: [TypeProbe.Access], relationships: [String: String], verb: String, complete: Bool) -> [String] {
        var problems: [String] = []
        for access in accesses {
            guard let property = description.property(named: access.name) else {
                problems.append("\(verb) '\(access.name)', which the model does not declare")
                continue
            }
            if !access.valueType.canStore(property.type) {
                problems.append("\(verb) '\(access.name)' as \(access.valueType) but the model says \(property.type.rawValue)")
            }
        }
        for (name, childType) in relationships.sorted(by: { $0.key < $1.key }) {
            guard let relationship = description.relationship(named: name) else {
                problems.append("\(verb) relationship '\(name)', which the model does not declare")
                continue
            }
            if relationship.childType != childType {
                problems.append("\(verb) relationship '\(name)' as [\(childType)] but the model says [\(relationship.childType)]")
            }
        }
        // A read that threw stops init(row:), so what follows it can't be called missing.
        guard complete else { return problems }
        let touched = Set(accesses.map(\.name))
        for property in description.properties where !touched.contains(property.name) {
            problems.append("\(verb.split(separator: " ")[0]) never touches '\(property.name)' (\(property.type.rawValue) in the model)")
        }
        for relationship in description.relationships where relationships[relationship.name] == nil {
            problems.append("\(verb.split(separator: " ")[0]) never touches relationship '\(relationship.name)'")
        }
        return problems
    }

    /// A property the model declares optional may be NULL, and a non-optional read would throw.
    private func nonOptionalReadsOfOptionalProperties(_ reads: [TypeProbe.Access]) -> [String] {
        reads.compactMap { access in
            guard let property = description.property(named: access.name), property.isOptional,
                  !(access.valueType is any NullableColumnValue.Type) else { return nil }
            return "init(row:) reads '\(access.name)' as \(access.valueType), which can't hold NULL, but the model says '\(property.typeSpelling)'"
        }
    }

    private var sampleID: QSAnyID {
        description.uniqueIDType == .int64 ? .integer(1_000) : .string("sample")
    }

    /// One plausible value per column, in the model's type.
    private func sampleValues() -> [SQLValue] {
        description.properties.map { property in
            property.name == "uniqueID" ? sampleID.sqlValue : sampleValue(property.type)
        }
    }

    /// A sample for a read of `name` as `valueType` when the model's type for the column is not
    /// one `valueType` reads; nil to keep the column's own sample.
    private func sampleValue(reading name: String, as valueType: any QSColumnValue.Type) -> SQLValue? {
        if let property = description.property(named: name), valueType.canStore(property.type) { return nil }
        return QSPropertyType.allCases.first { valueType.canStore($0) }.map(sampleValue)
    }

    private func sampleValue(_ type: QSPropertyType) -> SQLValue {
        switch type {
        case .int64: return .integer(1)
        case .double: return .real(1.5)
        case .boolean: return .integer(0)
        case .string: return .text("sample")
        case .date: return .real(0)
        case .data: return .blob(Data([0]))
        case .plist:
            let empty = try? PropertyListSerialization.data(fromPropertyList: [Any](), format: .binary, options: 0)
            return empty.map { .blob($0) } ?? .null
        case .json: return .text("[]")
        }
    }
}
