/// Entries keyed by uniqueID, laid out to cost little memory per row: the keys and entries in two
/// dense arrays, and an open-addressing index of 4-byte slots into them.
///
/// The two tables of held instances (the main actor's ``InstanceTable``, the queue's
/// ``KnownRows``) keep one entry per row the app holds, so their size per row is most of what a
/// held object costs beyond its own data. A Swift dictionary of 100,000 entries has 262,144
/// buckets of key and value; here the same rows take 100,000 dense entries and 131,072 slots of 4
/// bytes, and a walk over every entry (the sweep for dead instances) reads the dense arrays in
/// order instead of keeping a list of keys beside them.
///
/// Integer IDs, the usual kind, are kept as 8-byte integers (see ``IDKeys``) and hashed by one
/// multiplication with a seed; text IDs through `Hasher`, once (their hashes are kept beside them,
/// and a fetch hashes each row's ID once for both tables: see ``IDHashing``). Removing an entry
/// moves the last one into its place, so positions change on removal: a position is good until the
/// next removal.
struct IDTable<Entry> {
    private var keys = IDKeys()
    private(set) var entries: [Entry] = []
    /// Position + 1 of the entry whose key hashes near here; 0 for an empty slot. A power of two
    /// in count (or none before the first insert), at most three quarters used.
    private var slots: [UInt32] = []
    /// 64 minus the number of bits that index `slots`.
    private var shift: UInt64 = 64
    /// Where the next sweep step looks (see ``sweep(afterAdding:isDead:)``).
    private var sweepPosition = 0

    var count: Int { keys.count }
    var isEmpty: Bool { count == 0 }
    /// Every key, in entry order.
    var allKeys: [QSAnyID] { keys.all }

    /// The position of `id`'s entry, or nil when there is none.
    func position(of id: QSAnyID) -> Int? {
        guard !slots.isEmpty else { return nil }
        return position(of: id, hash: keys.hash(of: id))
    }

    /// The hash of `id`, in this table and every other (see ``IDHashing``).
    func hash(of id: QSAnyID) -> UInt64 {
        keys.hash(of: id)
    }

    /// The position of `id`'s entry, `hash` being its hash; nil when there is none.
    ///
    /// This and ``position(adding:hash:_:)`` are always inlined: called from their variants that
    /// hash, they were compiled apart, and opening the startup workload's store ran 3 M
    /// instructions more (74.1 M against 77.1 M).
    @inline(__always)
    func position(of id: QSAnyID, hash: UInt64) -> Int? {
        assert(hash == keys.hash(of: id), "an ID hashed otherwise than every table hashes it")
        guard !slots.isEmpty else { return nil }
        var slot = homeSlot(ofHash: hash)
        while true {
            let stored = Int(slots[slot])
            if stored == 0 { return nil }
            if keys.key(at: stored - 1, is: id, hash: hash) { return stored - 1 }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    /// The position of `id`'s entry, appending `newEntry()` for it when there is none.
    mutating func position(adding id: QSAnyID, _ newEntry: () -> Entry) -> (position: Int, isNew: Bool) {
        position(adding: id, hash: keys.hash(of: id), newEntry)
    }

    /// ``position(adding:_:)`` for an ID hashed beforehand: `hash` is its hash.
    @inline(__always)
    mutating func position(adding id: QSAnyID, hash: UInt64, _ newEntry: () -> Entry) -> (position: Int, isNew: Bool) {
        assert(hash == keys.hash(of: id), "an ID hashed otherwise than every table hashes it")
        if 4 * (keys.count + 1) > 3 * slots.count { growSlots(toFit: keys.count + 1) }
        let mask = slots.count - 1
        var slot = homeSlot(ofHash: hash)
        while true {
            let stored = Int(slots[slot])
            if stored == 0 { break }
            if keys.key(at: stored - 1, is: id, hash: hash) { return (stored - 1, false) }
            slot = (slot + 1) & mask
        }
        keys.append(id, hash: hash)
        entries.append(newEntry())
        slots[slot] = UInt32(keys.count)
        return (keys.count - 1, true)
    }

    /// Changes the entry at `position` where it lies: copying an entry out and back would copy
    /// its weak reference (atomic operations on the instance's side table) and retain its arrays.
    mutating func update<Result>(at position: Int, _ change: (inout Entry) -> Result) -> Result {
        change(&entries[position])
    }

    /// Removes `id`'s entry and returns it; nil when there was none.
    @discardableResult
    mutating func remove(_ id: QSAnyID) -> Entry? {
        guard let position = position(of: id) else { return nil }
        return remove(at: position)
    }

    /// Removes the entry at `position` and returns it. The last entry moves into its place.
    @discardableResult
    mutating func remove(at position: Int) -> Entry {
        emptySlot(pointingTo: position)
        let last = keys.count - 1
        if position != last {
            repointSlot(from: last, to: position)
            keys.swapAt(position, last)
            entries.swapAt(position, last)
        }
        keys.removeLast()
        return entries.removeLast()
    }

    /// Keeps only the entries `isKept` says to, and rebuilds the slots for them. A table that
    /// keeps every entry, the usual case (a permanent cache's instances never die), is left as it
    /// is.
    mutating func keepOnly(where isKept: (Entry) -> Bool) {
        guard entries.contains(where: { !isKept($0) }) else { return }
        var keptKeys = IDKeys()
        var keptEntries: [Entry] = []
        for (position, entry) in entries.enumerated() where isKept(entry) {
            keptKeys.append(keys[position], hash: keys.hash(at: position))
            keptEntries.append(entry)
        }
        keys = keptKeys
        entries = keptEntries
        slots = []
        shift = 64
        sweepPosition = 0
        if keys.count > 0 { growSlots(toFit: keys.count) }
    }

    /// Makes room for `count` more entries without growing on the way.
    mutating func reserveCapacity(adding count: Int) {
        guard let capacity = capacityToReserve(count: keys.count, adding: count, capacity: keys.capacity) else { return }
        keys.reserveCapacity(capacity)
        entries.reserveCapacity(capacity)
        let needed = keys.count + count
        if 4 * needed > 3 * slots.count { growSlots(toFit: needed) }
    }

    /// Takes one step of a walk over the entries for each of the `added` entries just appended,
    /// looking only at the older ones (whoever added the new ones holds their instances), and
    /// removes each entry `isDead` says is dead. A walk ends after as many additions as there
    /// were entries, so an entry whose instance died is gone within two walks. `removed` hears the
    /// key of each entry removed.
    mutating func sweep(afterAdding added: Int, isDead: (inout Entry) -> Bool, removed: (QSAnyID) -> Void = { _ in }) {
        var limit = keys.count - added
        for _ in 0 ..< added {
            limit = min(limit, keys.count)
            guard limit > 0 else { return }
            if sweepPosition >= limit { sweepPosition = 0 }
            if isDead(&entries[sweepPosition]) {
                removed(keys[sweepPosition])
                // The last entry moves into this position and is looked at next.
                remove(at: sweepPosition)
            } else {
                sweepPosition += 1
            }
        }
    }

    // MARK: Slots

    private func homeSlot(ofHash hash: UInt64) -> Int {
        // Fibonacci hashing: the top bits of the product spread nearby IDs over the slots.
        return Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot that holds `position`.
    private func slot(pointingTo position: Int) -> Int {
        var slot = homeSlot(ofHash: keys.hash(at: position))
        while Int(slots[slot]) != position + 1 { slot = (slot + 1) & (slots.count - 1) }
        return slot
    }

    private mutating func repointSlot(from old: Int, to new: Int) {
        slots[slot(pointingTo: old)] = UInt32(new + 1)
    }

    /// Empties the slot of `position`, then moves back each entry of the run after it that would
    /// no longer be found past the gap (linear probing's deletion, which leaves no markers).
    private mutating func emptySlot(pointingTo position: Int) {
        let mask = slots.count - 1
        var gap = slot(pointingTo: position)
        var next = gap
        while true {
            next = (next + 1) & mask
            let stored = Int(slots[next])
            if stored == 0 { break }
            let home = homeSlot(ofHash: keys.hash(at: stored - 1))
            // The entry stays where it is if its home lies cyclically after the gap, up to it.
            let distanceFromHome = (next - home) & mask
            let distanceFromGap = (next - gap) & mask
            if distanceFromHome >= distanceFromGap {
                slots[gap] = slots[next]
                gap = next
            }
        }
        slots[gap] = 0
    }

    private mutating func growSlots(toFit count: Int) {
        var bits: UInt64 = 3
        while (1 << bits) * 3 < count * 4 { bits += 1 }
        let size = max(1 << Int(bits), 2 * slots.count)
        shift = 64 - UInt64(size.trailingZeroBitCount)
        slots = Array(repeating: 0, count: size)
        let mask = size - 1
        for position in keys.indices {
            var slot = homeSlot(ofHash: keys.hash(at: position))
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(position + 1)
        }
    }
}
