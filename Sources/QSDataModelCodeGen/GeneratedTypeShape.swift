import QSData

/// The Swift declaration of one generated type, decided from its model description: its name,
/// what it is (struct or final class), what it conforms to, and each stored property in order with
/// its Swift name, type, mutability and default argument.
struct GeneratedTypeShape {
    /// A stored property: a column-backed property or a relationship.
    struct Member {
        /// The name the row uses: the column's or the relationship's.
        let modelName: String
        let swiftName: String
        let swiftType: String
        let isRelationship: Bool
        /// `let`, `var`, `internal(set) var` or `private(set) var`.
        let binding: String
        /// A doc comment for what the Swift declaration alone does not say.
        let comment: String?
        /// The memberwise initializer's default: none for a required value.
        let defaultArgument: String?
    }

    let description: QSObjectDescription
    let isClass: Bool
    /// Uniqued or cached classes are patched in place, so they implement `update(from:)`.
    let isUpdatable: Bool
    /// Mutable classes patched in place mark each column property the app sets
    /// (`QSChangeTrackingObject`), so that a save writes what they set without reading the row.
    let marksChanges: Bool
    let conformances: [String]
    let members: [Member]

    /// The Swift type's name.
    let name: String
    /// Whether the Swift name differs from the model's, so that the type declares `modelName`.
    var isRenamed: Bool { name != description.name }

    /// - Parameters:
    ///   - model: the whole model, for the Swift names of relationships' child types.
    ///   - defaults: the schema's column defaults, which become default arguments.
    init(
        _ description: QSObjectDescription, options: GeneratedTypeOptions, in model: GeneratedModel,
        defaults: ColumnDefaults, access: AccessLevel, isSendable: Bool
    ) {
        self.description = description
        name = model.swiftTypeName(of: description.name)
        isClass = options.kind == .class
        isUpdatable = isClass && description.sharesInstances
        marksChanges = isUpdatable && !description.immutable
        var conformances = [marksChanges ? "QSChangeTrackingObject" : isUpdatable ? "QSUpdatableObject" : "QSDataObject"]
        if isSendable { conformances.append("Sendable") }
        conformances += options.conformances.filter { !conformances.contains($0) }
        self.conformances = conformances

        let mutableBinding: String
        if description.immutable {
            mutableBinding = isUpdatable ? "private(set) var" : "let"
        } else {
            switch options.setterAccess {
            case .public: mutableBinding = "var"
            case .internal: mutableBinding = access == .internal ? "var" : "internal(set) var"
            case .private: mutableBinding = "private(set) var"
            }
        }
        let properties = description.properties.map { property in
            let swiftName = options.swiftName(of: property.name)
            let baseType = options.swiftTypes[property.name] ?? Self.swiftType(of: property.type)
            let defaultSQL = defaults.sql(table: description.table, column: property.name)
            return Member(
                modelName: property.name, swiftName: swiftName,
                swiftType: baseType + (property.isOptional ? "?" : ""), isRelationship: false,
                binding: property.name == "uniqueID" ? "let" : mutableBinding,
                comment: swiftName == property.name ? nil : "Column `\(property.name)`.",
                defaultArgument: property.name == "uniqueID" ? nil : DefaultArgument.swift(
                    for: defaultSQL, of: property, swiftType: baseType))
        }
        let relationships = description.relationships.map { relationship in
            let child = model.swiftTypeName(of: relationship.childType)
            let isLazy = relationship.loading == .lazy
            return Member(
                modelName: relationship.name, swiftName: options.swiftName(of: relationship.name),
                swiftType: isLazy ? "QSRelated<\(child)>" : "[\(child)]", isRelationship: true, binding: mutableBinding,
                comment: isLazy
                    ? "In order; stored in lookup table `\(relationship.table)`; loaded lazily (IDs only until fetched)."
                    : "In order; stored in lookup table `\(relationship.table)`.",
                defaultArgument: isLazy ? "QSRelated([])" : "[]")
        }
        members = Self.ordered(properties + relationships, by: options.propertyOrder)
    }

    /// The members in the model's `propertyOrder`, or as they come (`uniqueID`, the other
    /// properties by name, the relationships by name) when it gives none.
    private static func ordered(_ members: [Member], by order: [String]) -> [Member] {
        guard !order.isEmpty else { return members }
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return members.sorted { (position[$0.modelName] ?? order.count) < (position[$1.modelName] ?? order.count) }
    }

    /// The Swift type a property of `type` has when the model does not name one.
    static func swiftType(of type: QSPropertyType) -> String {
        switch type {
        case .int64: "Int64"
        case .double: "Double"
        case .boolean: "Bool"
        case .string: "String"
        case .date: "Date"
        case .data: "Data"
        // The loader requires a Swift type for these; this is never used.
        case .plist, .json: "Data"
        }
    }

    /// The generated types that can be `Sendable`: structs, and immutable classes that are not
    /// patched in place, whose relationships all lead to such types. Swift types named in
    /// `swiftTypes` are taken to be Sendable values.
    static func sendableTypeNames(in generated: GeneratedModel) -> Set<String> {
        let model = generated.model
        var sendable = Set(model.objectTypes.values.filter { type in
            guard let options = generated.options[type.name] else { return false }
            return options.kind == .struct || (type.immutable && !type.sharesInstances)
        }.map(\.name))
        var removedOne = true
        while removedOne {
            removedOne = false
            for name in sendable.sorted() {
                let children = model[name]?.relationships.map(\.childType) ?? []
                if children.contains(where: { !sendable.contains($0) }) {
                    sendable.remove(name)
                    removedOne = true
                }
            }
        }
        return sendable
    }
}
