/// A uniqueID of any model type, as the store keeps it internally and reports it in changes.
public enum QSAnyID: Hashable, Sendable, CustomStringConvertible {
    case integer(Int64)
    case string(String)

    public var description: String {
        switch self {
        case .integer(let value): return String(value)
        case .string(let value): return value
        }
    }

    /// Hashes the value alone, leaving out which case holds it (an integer never equals a
    /// string, so nothing is lost): one round of hashing fewer on every cache look-up.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .integer(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        }
    }

    /// An ID read from a column: an integer, or text (anything else is taken as its text).
    init(column value: SQLValue) {
        self = QSAnyID(sqlValue: value) ?? .string(value.description)
    }

    /// The ID a column holds: INTEGER or TEXT; nil for any other value.
    init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let value): self = .integer(value)
        case .text(let value): self = .string(value)
        default: return nil
        }
    }

    package var sqlValue: SQLValue {
        switch self {
        case .integer(let value): return .integer(value)
        case .string(let value): return .text(value)
        }
    }
}

/// The types a uniqueID can have: `Int64` or `String`.
public protocol QSUniqueID: QSColumnValue, Hashable, Sendable {
    /// The ID as the store keeps it.
    var anyID: QSAnyID { get }
    /// The ID back from the store's form, or nil when it is of the other kind.
    init?(anyID: QSAnyID)
}

extension Int64: QSUniqueID {
    public var anyID: QSAnyID { .integer(self) }
    public init?(anyID: QSAnyID) {
        guard case .integer(let value) = anyID else { return nil }
        self = value
    }
}

extension String: QSUniqueID {
    public var anyID: QSAnyID { .string(self) }
    public init?(anyID: QSAnyID) {
        guard case .string(let value) = anyID else { return nil }
        self = value
    }
}

extension Sequence where Element: QSUniqueID {
    /// The IDs as the store keeps them. Mapped here, outside any actor: the same closure written
    /// in one of the store's main-actor methods checks, for every ID, that it runs on the main
    /// actor. Inlinable, so that it is compiled for the app's ID type.
    @inlinable
    var anyIDs: [QSAnyID] { map { $0.anyID } }
}
