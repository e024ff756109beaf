import Foundation
import QSData

/// Checks a generated type's `swiftTypes`: a property's Swift type must be able to hold the
/// property's model type, and a relationship's must be the one its `loading` reads.
extension GenerationOptionsReader {
    /// The Swift types QSData stores, by the names a model writes, with the conformance whose
    /// `canStore` says which model types each can hold. A `Swift.` or `Foundation.` prefix is
    /// allowed. Other names are the app's own types, which the compiler and the store's
    /// registration check verify.
    static var knownSwiftTypes: [(name: String, type: any QSColumnValue.Type)] {
        [
            ("Int64", Int64.self), ("Int", Int.self), ("Double", Double.self), ("Bool", Bool.self),
            ("String", String.self), ("Date", Date.self), ("Data", Data.self), ("URL", URL.self),
        ]
    }

    /// Swift types name properties or relationships, carry no `?`, fit the property's model
    /// type, and every structured property has one. Relationships are checked once every type
    /// is read (``checkRelationshipSwiftTypes(_:)``), since the child's Swift name is needed.
    func checkSwiftTypes(_ swiftTypes: [String: String], of type: QSObjectDescription) throws {
        for (name, swiftType) in swiftTypes.sorted(by: { $0.key < $1.key }) {
            let key = "swiftTypes.\(name)"
            if type.relationship(named: name) != nil { continue }
            guard let property = type.property(named: name) else {
                throw failure(type.name, key, "the type has no property or relationship of that name")
            }
            if swiftType.hasSuffix("?") {
                throw failure(type.name, key, "write the Swift type without '?': the property's type in the model ('string?') says whether it may be NULL")
            }
            if let problem = Self.problem(storing: property.type, in: swiftType) {
                throw failure(type.name, key, problem)
            }
        }
        for property in type.properties where [.plist, .json].contains(property.type) && swiftTypes[property.name] == nil {
            throw failure(type.name, "swiftTypes.\(property.name)",
                          "missing: a \(property.type.rawValue) property of a generated type needs its Swift type (for example [String], or a Codable struct)")
        }
    }

    /// A relationship's Swift type, when `swiftTypes` names one, is the one its loading reads:
    /// `[Child]` for an eager relationship, `QSRelated<Child>` for a lazy one.
    func checkRelationshipSwiftTypes(_ model: GeneratedModel) throws {
        for type in model.model.objectTypes.values.sorted(by: { $0.name < $1.name }) {
            guard let swiftTypes = model.options[type.name]?.swiftTypes else { continue }
            for relationship in type.relationships {
                guard let written = swiftTypes[relationship.name] else { continue }
                let child = model.swiftTypeName(of: relationship.childType)
                let expected = relationship.loading == .lazy ? "QSRelated<\(child)>" : "[\(child)]"
                guard written.filter({ $0 != " " }) != expected else { continue }
                let reason = relationship.loading == .lazy
                    ? "the relationship is loaded lazily (its 'loading' is 'lazy'), so a fetch gives its children's IDs only: its Swift type is \(expected)"
                    : "the relationship is loaded eagerly (its 'loading' is 'eager' or absent): its Swift type is \(expected); make it lazy to read it as QSRelated<\(child)>"
                throw failure(type.name, "swiftTypes.\(relationship.name)", "'\(written)' does not fit: \(reason)")
            }
        }
    }

    /// Why a property of model type `type` can't be read as the Swift type spelled `swiftType`,
    /// or nil when it can (or when the type is the app's own, which the loader can't see).
    static func problem(storing type: QSPropertyType, in swiftType: String) -> String? {
        let fitting = knownSwiftTypes.filter { $0.type.canStore(type) }.map(\.name)
        let accepted = fitting.isEmpty
            ? "an array or dictionary of Codable values, or a type conforming to QSStructuredValue"
            : fitting.joined(separator: " or ") + ", or a type of your own conforming to QSColumnValue"
        let bareName = ["Swift.", "Foundation."].reduce(swiftType) { name, module in
            name.hasPrefix(module) ? String(name.dropFirst(module.count)) : name
        }
        let canStore: Bool
        if let known = knownSwiftTypes.first(where: { $0.name == bareName }) {
            canStore = known.type.canStore(type)
        } else if bareName.hasPrefix("[") {
            // An array or dictionary literal type: stored as a structured value.
            canStore = [Data].canStore(type)
        } else if bareName.hasPrefix("QSRelated<") {
            return "QSRelated holds a relationship's children, not a property's value: a \(type.rawValue) property is \(accepted)"
        } else {
            return nil
        }
        let article = type == .int64 ? "an" : "a"
        return canStore ? nil : "'\(swiftType)' can't hold \(article) \(type.rawValue) property: use \(accepted)"
    }
}
