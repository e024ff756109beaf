/// How an ordered to-many relationship travels: not as one value, but as two parts per child,
/// each its own last-writer-wins value like any property, so that two devices editing the same
/// list keep both their edits.
///
/// - `cards[17]`, the child's **membership**: `1` while the parent lists the child, `null` once
///   it was taken out. Adding a child sets it; removing one clears it.
/// - `cards[17].position`, the child's **position key**: text that sorts the parent's children
///   (see ``SyncListPosition``). Adding a child sets it too; moving one sets only this.
///
/// A move therefore never brings back a child another device took out at the same time, and a
/// child added by two devices at once is listed once. The ID inside the brackets is the
/// child's uniqueID as JSON (`cards[17]`, `tags["paris"]`).
public struct SyncListPart: Hashable, Sendable {
    public enum Kind: Sendable {
        case membership
        case position
    }

    /// The relationship's name.
    public let list: String
    public let child: SyncID
    public let kind: Kind

    public init(list: String, child: SyncID, kind: Kind) {
        self.list = list
        self.child = child
        self.kind = kind
    }

    static let positionSuffix = ".position"

    /// The part's name in a change's `values` and `stamps`.
    public var name: String {
        let base = list + "[" + child.json + "]"
        return kind == .membership ? base : base + Self.positionSuffix
    }

    /// Reads a part name; nil for a name that is not a list part (a property's).
    public init?(name: String) {
        guard let open = name.firstIndex(of: "[") else { return nil }
        var rest = name[name.index(after: open)...]
        var kind = Kind.membership
        if rest.hasSuffix(Self.positionSuffix) {
            rest = rest.dropLast(Self.positionSuffix.count)
            kind = .position
        }
        guard rest.hasSuffix("]"), let child = SyncID(json: String(rest.dropLast())) else { return nil }
        self.init(list: String(name[..<open]), child: child, kind: kind)
    }

    /// The membership value of a listed child.
    public static let listed = SyncValue.integer(1)
}
