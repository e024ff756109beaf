/// When a value was written, as a hybrid logical clock reads it: milliseconds of physical time,
/// a counter for events within one millisecond (or after seeing a stamp from a clock that runs
/// ahead), and the replica that wrote it.
///
/// Stamps compare as their text does, which puts them in the order of (time, counter, replica):
/// the server and every replica order the same two stamps the same way, and two different
/// events never share a stamp, because a replica's counter moves on with every stamp it makes.
/// On the wire a stamp is its text: 12 hex digits of milliseconds since 1970, `-`, 4 of counter,
/// `-`, 16 of replica, such as `018c2e5f7a10-0000-3f2a9b7c1d0e4f55`.
public struct SyncStamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The stamp's text, in the form described above.
    public let text: String

    /// The milliseconds since 1970 the stamp was made at (as its clock had them).
    public let milliseconds: Int64
    /// Which event within that millisecond.
    public let counter: Int
    /// The replica that made it.
    public let replica: SyncReplicaID

    public init(milliseconds: Int64, counter: Int, replica: SyncReplicaID) {
        precondition((0...Self.maximumMilliseconds).contains(milliseconds) && (0...Self.maximumCounter).contains(counter))
        self.milliseconds = milliseconds
        self.counter = counter
        self.replica = replica
        text = Self.hex(UInt64(milliseconds), digits: 12) + "-" + Self.hex(UInt64(counter), digits: 4) + "-" + replica.text
    }

    /// Reads a stamp's text; nil when it is not in the form described above.
    public init?(text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 12, parts[1].count == 4,
              let milliseconds = Self.number(parts[0]), let counter = Self.number(parts[1]),
              let replica = SyncReplicaID(text: String(parts[2]))
        else { return nil }
        // Kept as it came, not formatted again: lowercase digits of these widths are what
        // `init(milliseconds:counter:replica:)` writes (a pull reads thousands of stamps).
        self.text = text
        self.milliseconds = Int64(milliseconds)
        self.counter = Int(counter)
        self.replica = replica
    }

    /// Earlier than every stamp a clock makes.
    public static let zero = SyncStamp(milliseconds: 0, counter: 0, replica: .none)

    /// The largest time a stamp holds: year 10889, far past any clock.
    public static let maximumMilliseconds: Int64 = 0xFFFF_FFFF_FFFF
    /// The most events one replica stamps within one millisecond.
    public static let maximumCounter = 0xFFFF

    public static func < (lhs: SyncStamp, rhs: SyncStamp) -> Bool { lhs.text < rhs.text }

    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        self = try decodeText(from: decoder, as: "sync stamp", SyncStamp.init(text:))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Lowercase hex digits only (what ``hex(_:digits:)`` writes).
    static func number(_ text: Substring) -> UInt64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return UInt64(text, radix: 16)
    }
}

/// Names one replica (one database that syncs) in the stamps it makes: 16 lowercase hex digits.
public struct SyncReplicaID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let text: String

    /// A new random replica ID.
    public static func random() -> SyncReplicaID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A replica ID from `generator` (a seeded one makes a simulation repeatable).
    public static func random(using generator: inout some RandomNumberGenerator) -> SyncReplicaID {
        SyncReplicaID(unchecked: SyncStamp.hex(generator.next(), digits: 16))
    }

    /// Reads a replica ID; nil unless it is 16 lowercase hex digits.
    public init?(text: String) {
        guard text.count == 16, SyncStamp.number(Substring(text)) != nil else { return nil }
        self.text = text
    }

    /// All zeros: no replica's (see ``SyncStamp/zero``).
    static let none = SyncReplicaID(unchecked: "0000000000000000")

    private init(unchecked text: String) {
        self.text = text
    }

    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        self = try decodeText(from: decoder, as: "replica ID", SyncReplicaID.init(text:))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// A value kept on the wire as text, read by `make`; a text it refuses is a decoding error naming `what`.
private func decodeText<Value>(from decoder: any Decoder, as what: String, _ make: (String) -> Value?) throws -> Value {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let value = make(text) else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a \(what): \(text)")
    }
    return value
}
