/// Position keys: the text that orders a list's children. Children sort by key (UTF-8 bytes
/// compared in order), and two children with the same key by their uniqueIDs' JSON, the same
/// way on every replica.
///
/// A key is made between its two neighbours' keys, so inserting or moving a child writes one
/// key and leaves every other child's alone. Keys are made for a run of children at once (the
/// children a device inserted together at one place): the run's keys share a prefix that ends
/// in the replica's ID, and a key made later between two others never falls inside another
/// device's run, so two devices that insert at the same place keep their runs whole, one after
/// the other, instead of interleaving them.
///
/// Keys are digits `0-9A-Za-z`. A run's key is: the shortest digits between the neighbours, the
/// replica's ID (see ``tag(of:)``), and the child's number within the run in a fixed width.
/// Appending or prepending one child at a time lengthens keys by about one digit every 30
/// children; a list whose keys grow past ``rebalanceLength`` is given fresh ones.
public enum SyncListPosition {
    /// The digits keys are made of, in byte order.
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// Keys this long (or longer) are a sign the list should get fresh, short keys.
    public static let rebalanceLength = 200

    /// Keys for `count` children placed together between `low` and `high` (nil: the list's
    /// start or end), in order, each strictly between the two and after the one before.
    /// Nil when no key fits between them (they are equal, or out of order).
    public static func run(of count: Int, between low: String?, and high: String?, replica: SyncReplicaID) -> [String]? {
        guard count > 0 else { return [] }
        guard let prefix = digitsBetween(Array((low ?? "").utf8), high.map { Array($0.utf8) }) else { return nil }
        let stem = String(decoding: prefix + tag(of: replica), as: UTF8.self)
        var width = 1, capacity = digits.count - 1
        while capacity < count {
            width += 1
            capacity = capacity * digits.count + digits.count - 1
        }
        return (1...count).map { stem + number($0, width: width) }
    }

    /// Keys for a list given whole, child by child in order: the same on every replica, so that
    /// replicas which turn the same whole list into parts agree on every key. (A whole list comes
    /// from a replica or file older than list parts.)
    public static func wholeList(of count: Int) -> [String] {
        var width = 4, capacity = 14_776_335  // 62⁴ - 1
        while capacity < count {
            width += 1
            capacity = capacity * digits.count + digits.count - 1
        }
        return (0..<count).map { number($0 + 1, width: width) }
    }

    /// Whether `a` sorts before `b` as keys do.
    public static func precedes(_ a: (child: SyncID, key: String), _ b: (child: SyncID, key: String)) -> Bool {
        a.key == b.key ? a.child.json < b.child.json : Array(a.key.utf8).lexicographicallyPrecedes(Array(b.key.utf8))
    }

    /// Short digits `d` with `low < d < high` that are not a prefix of `high`, so that anything
    /// appended to them stays between the two.
    static func digitsBetween(_ low: [UInt8], _ high: [UInt8]?) -> [UInt8]? {
        if let high, !low.lexicographicallyPrecedes(high) { return nil }
        var prefix: [UInt8] = []
        var bounded = high != nil
        var index = 0
        while true {
            let below: UInt8? = index < low.count ? low[index] : nil
            let above: UInt8? = bounded ? high.flatMap { index < $0.count ? $0[index] : nil } : nil
            if bounded, above == nil { return nil }  // (cannot happen while low < high)
            let fitting = digits.filter { digit in (below.map { digit > $0 } ?? true) && (above.map { digit < $0 } ?? true) }
            if !fitting.isEmpty {
                // Next to the one neighbour there is (appending and prepending are the common
                // edits, and stepping by one lets keys grow slowest); halfway between two.
                let digit = switch (below, above) {
                case (.some, nil): fitting[0]
                case (nil, .some): fitting[fitting.count - 1]
                default: fitting[fitting.count / 2]
                }
                return prefix + [digit]
            }
            // Nothing fits at this place: follow the low key (or the high one, below the lowest digit) one place further.
            let next = below ?? above ?? digits[0]
            prefix.append(next)
            if let below, let above, below < above { bounded = false }
            index += 1
            if index > low.count + (high?.count ?? 0) + 1 { return nil }
        }
    }

    /// The replica's ID in digits from the middle of the alphabet (`N`…`c` for its hex `0`…`f`),
    /// so that keys made later after or before a run have room on both sides.
    static func tag(of replica: SyncReplicaID) -> [UInt8] {
        replica.text.utf8.map { hex in
            let value = hex <= UInt8(ascii: "9") ? hex - UInt8(ascii: "0") : hex - UInt8(ascii: "a") + 10
            return digits[23 + Int(value)]
        }
    }

    private static func number(_ value: Int, width: Int) -> String {
        var value = value
        var text: [UInt8] = []
        for _ in 0..<width {
            text.append(digits[value % digits.count])
            value /= digits.count
        }
        return String(decoding: text.reversed(), as: UTF8.self)
    }
}
