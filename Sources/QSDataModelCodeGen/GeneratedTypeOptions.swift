/// What the data model says about a type whose Swift declaration the model code generator
/// writes: the per-type keys `generate`, `swiftName`, `kind`, `swiftNames`, `swiftTypes`,
/// `conformances`, `setterAccess` and `propertyOrder`, read by ``GenerationOptionsReader``. The
/// store itself only reads `generate`.
package struct GeneratedTypeOptions: Sendable, Equatable {
    /// Whether the type is a value or a reference.
    package enum Kind: String, Sendable, CaseIterable {
        case `struct`
        case `class`
    }

    /// Who may set the stored properties of a mutable generated type.
    package enum SetterAccess: String, Sendable, CaseIterable {
        /// Whoever can see the type.
        case `public`
        /// Code in the type's own module only (`public internal(set) var`).
        case `internal`
        /// The type itself only: the store, through `update(from:)`.
        case `private`
    }

    /// The Swift type's name when it is not the model's name (a model type `Task` written as
    /// `struct TaskItem`, which keeps Swift's `Task` in reach); nil for the model's name.
    package let swiftName: String?
    /// `struct`, or `class` (a final class). Defaults to `class` for a uniqued type.
    package let kind: Kind
    /// Swift names for properties and relationships whose name in the model (their column or
    /// relationship name) is not the name the Swift code should use.
    package let swiftNames: [String: String]
    /// Swift types for properties and relationships, by model name. Required for `plist` and
    /// `json` properties; optional for the others (for example `Int` for an `int64`, `URL` for a
    /// `string`). A relationship's entry, when present, agrees with its `loading`.
    package let swiftTypes: [String: String]
    /// Protocols the declaration itself adopts, for conformances the compiler synthesizes only
    /// in the declaring file (`Equatable`, `Hashable`, `Codable`).
    package let conformances: [String]
    /// Who may set the stored properties of a mutable type.
    package let setterAccess: SetterAccess
    /// The order of the stored properties and of the memberwise initializer's parameters: every
    /// property and relationship by model name. Empty for the default order: `uniqueID`, the other
    /// properties by name, then the relationships by name.
    package let propertyOrder: [String]

    package init(
        swiftName: String? = nil, kind: Kind, swiftNames: [String: String], swiftTypes: [String: String],
        conformances: [String], setterAccess: SetterAccess, propertyOrder: [String] = []
    ) {
        self.swiftName = swiftName
        self.kind = kind
        self.swiftNames = swiftNames
        self.swiftTypes = swiftTypes
        self.conformances = conformances
        self.setterAccess = setterAccess
        self.propertyOrder = propertyOrder
    }

    /// The Swift name of a property or relationship.
    package func swiftName(of modelName: String) -> String {
        swiftNames[modelName] ?? modelName
    }
}
