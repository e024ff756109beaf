/// The keys of a weak cache in the order they arrived, walked a few at a time: each key looked
/// at is kept (compacted towards the front) or dropped, and a walk that reaches the end starts
/// over. A struct, so that each step is one access to the table's property rather than one per
/// field (each a run-time exclusivity check).
struct SweepOrder {
    var keys: [QSAnyID] = []
    private var read = 0
    private var write = 0

    init(keys: [QSAnyID] = []) {
        self.keys = keys
    }

    /// The next key to look at; nil at the end of a walk, which drops the keys not kept.
    mutating func next() -> QSAnyID? {
        guard read < keys.count else {
            keys.removeLast(keys.count - write)
            read = 0
            write = 0
            return nil
        }
        read += 1
        return keys[read - 1]
    }

    /// Keeps the key just looked at.
    mutating func keep(_ key: QSAnyID) {
        keys[write] = key
        write += 1
    }

    /// Looks at the next key and drops its entry from `entries` if `isDead` says its instance is
    /// gone, keeping the key otherwise. `isDead` reads the entry in place (see the tables' `Entry`).
    mutating func sweepOne<Entry>(from entries: inout [QSAnyID: Entry], isDead: (inout Entry) -> Bool) {
        guard let key = next() else { return }
        sweep(key, from: &entries, isDead: isDead)
    }

    /// Appends `newKeys`, whose entries hold instances alive now, and takes one step per key. A
    /// step that reaches one of them keeps it without a look: a large save's steps would
    /// otherwise look mostly at the rows it has just added.
    mutating func appendAlive<Entry>(_ newKeys: [QSAnyID], sweeping entries: inout [QSAnyID: Entry], isDead: (inout Entry) -> Bool) {
        // A walk that ends meanwhile keeps the order of the keys it kept, so the keys from here
        // on are still new ones.
        let firstNew = keys.count
        keys.append(contentsOf: newKeys)
        for _ in newKeys.indices {
            let position = read
            guard let key = next() else { continue }
            if position >= firstNew {
                keep(key)
            } else {
                sweep(key, from: &entries, isDead: isDead)
            }
        }
    }

    private mutating func sweep<Entry>(_ key: QSAnyID, from entries: inout [QSAnyID: Entry], isDead: (inout Entry) -> Bool) {
        guard let index = entries.index(forKey: key) else { return }
        if isDead(&entries.values[index]) {
            entries.remove(at: index)
        } else {
            keep(key)
        }
    }
}
