/// The access level of the generated declarations: `public` for a library target, so that its
/// clients can use the types; `internal` for an app or test target.
package enum AccessLevel: String, Sendable, CaseIterable {
    case `public`
    case `package`
    case `internal`

    /// The modifier and a space, or nothing for `internal`, which Swift assumes.
    var prefix: String { self == .internal ? "" : rawValue + " " }
}
