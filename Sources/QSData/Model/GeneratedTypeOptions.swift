/// What the data model says about a type whose Swift declaration the model code generator
/// writes: the per-type keys `generate`, `kind`, `swiftNames`, `swiftTypes`, `conformances` and
/// `setterAccess`. The store itself only uses the fact that a type is generated.
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

    /// The model's per-type keys that belong to generation.
    package static let keys: Set = ["generate", "kind", "swiftNames", "swiftTypes", "conformances", "setterAccess"]

    /// `struct`, or `class` (a final class). Defaults to `class` for a uniqued type.
    package let kind: Kind
    /// Swift names for properties and relationships whose name in the model (their column or
    /// relationship name) is not the name the Swift code should use.
    package let swiftNames: [String: String]
    /// Swift types for properties, by model name. Required for `plist` and `json` properties;
    /// optional for the others (for example `Int` for an `int64`, `URL` for a `string`).
    package let swiftTypes: [String: String]
    /// Protocols the declaration itself adopts, for conformances the compiler synthesizes only
    /// in the declaring file (`Equatable`, `Hashable`, `Codable`).
    package let conformances: [String]
    /// Who may set the stored properties of a mutable type.
    package let setterAccess: SetterAccess

    package init(kind: Kind, swiftNames: [String: String], swiftTypes: [String: String], conformances: [String], setterAccess: SetterAccess) {
        self.kind = kind
        self.swiftNames = swiftNames
        self.swiftTypes = swiftTypes
        self.conformances = conformances
        self.setterAccess = setterAccess
    }

    /// The Swift name of a property or relationship.
    package func swiftName(of modelName: String) -> String {
        swiftNames[modelName] ?? modelName
    }
}
