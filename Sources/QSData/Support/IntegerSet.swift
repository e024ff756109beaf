/// A set of integers made for one pass over a list, to tell which values come again.
///
/// `Set<QSAnyID>` hashes every insert with SipHash through `Hasher`, about 300 instructions
/// each: saving a parent of 1,000 children once looked for repeats among them that way, which
/// cost more than the save's SQL. This table has a fixed capacity, open addressing and a
/// multiplicative hash, and its memory is freed with it.
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
