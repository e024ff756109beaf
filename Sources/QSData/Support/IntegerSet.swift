/// A set of integers made for one pass over a list, to tell which values come again.
///
/// `Set<QSAnyID>` hashes every insert with SipHash through `Hasher`, about 300 instructions
/// each: saving a parent of 1,000 children once looked for repeats among them that way, which
/// cost more than the save's SQL. This table has a fixed capacity, open addressing and a
/// multiplicative hash, and its memory is freed with it. (A class that grows, tried for the
/// same job, cost three times as much per insert: an allocation per set, and calls the
/// optimiser would not inline.)
struct IntegerSet: ~Copyable {
    private let values: UnsafeMutablePointer<Int64>
    private let occupied: UnsafeMutablePointer<Bool>
    private let mask: Int
    private let shift: UInt64

    /// A set that holds up to `capacity` values (more would never find a free slot).
    init(capacity: Int) {
        // At most half full, so that a probe ends soon.
        var bits: UInt64 = 4
        while (1 << bits) < 2 * capacity { bits += 1 }
        let size = 1 << Int(bits)
        mask = size - 1
        shift = 64 - bits
        values = .allocate(capacity: size)
        occupied = .allocate(capacity: size)
        occupied.initialize(repeating: false, count: size)
    }

    deinit {
        values.deallocate()
        occupied.deallocate()
    }

    /// Adds `value`; returns false when it was there already.
    mutating func insert(_ value: Int64) -> Bool {
        // Fibonacci hashing: the top bits of the product spread nearby IDs over the table.
        var slot = Int(truncatingIfNeeded: (UInt64(bitPattern: value) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while occupied[slot] {
            if values[slot] == value { return false }
            slot = (slot + 1) & mask
        }
        occupied[slot] = true
        values[slot] = value
        return true
    }
}

extension Array where Element == QSAnyID {
    /// Whether an ID comes more than once. Integer IDs, the usual kind, are looked for in an
    /// ``IntegerSet``; a list holding any other kind in a `Set`.
    var repeatsAnID: Bool {
        if count <= Self.comparedPairwise { return repeatsComparedPairwise }
        if let repeats = integersRepeat { return repeats }
        return Set(self).count != count
    }

    /// Up to this many IDs, each is compared with those after it: for the few rows of a small
    /// save, fewer instructions than a table, and no allocation (a save of one object is often
    /// one of thousands in a batch).
    private static var comparedPairwise: Int { 8 }

    private var repeatsComparedPairwise: Bool {
        for first in indices {
            for second in index(after: first) ..< endIndex where self[first] == self[second] { return true }
        }
        return false
    }

    /// Whether an integer comes more than once; nil when an ID is not an integer.
    var integersRepeat: Bool? {
        var seen = IntegerSet(capacity: count)
        for id in self {
            guard case .integer(let value) = id else { return nil }
            if !seen.insert(value) { return true }
        }
        return false
    }
}
