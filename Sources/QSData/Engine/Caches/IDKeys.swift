/// The keys of an ``IDTable``, in entry order, and how they hash, kept as small as they allow: as
/// integers alone (8 bytes a key, where a ``QSAnyID`` takes 24) until a text key arrives, then
/// every key as a ``QSAnyID`` with its hash beside it. A type's uniqueIDs are all of one kind, so
/// a table of integer IDs never converts.
///
/// An integer key hashes by one multiplication (in ``IDTable``) of the key mixed with a seed. A
/// text key hashes through `Hasher`, which reads the whole text: its hash is kept, so that a probe
/// past another key compares two hashes instead of two texts (reading each text's storage,
/// somewhere else in memory), and growing the table hashes no text again. Every table hashes a key
/// alike (see ``IDHashing``).
struct IDKeys {
    private var integers: [Int64] = []
    /// Every key, once any is text; nil while all are integers.
    private var anyKeys: [QSAnyID]?
    /// The hash of each key in `anyKeys`, in the same order.
    private var anyHashes: [UInt64] = []
    private let hashing = IDHashing()

    var count: Int { anyKeys?.count ?? integers.count }
    var capacity: Int { anyKeys?.capacity ?? integers.capacity }
    var indices: Range<Int> { 0 ..< count }

    subscript(position: Int) -> QSAnyID {
        if let anyKeys { return anyKeys[position] }
        return .integer(integers[position])
    }

    /// The hash of `id` in this table, and in every other.
    func hash(of id: QSAnyID) -> UInt64 {
        hashing.hash(of: id)
    }

    /// The hash of the key at `position`: kept for text keys, worked out again for integers.
    func hash(at position: Int) -> UInt64 {
        if anyKeys != nil { return anyHashes[position] }
        return hashing.hash(ofInteger: integers[position])
    }

    /// Whether the key at `position` is `id`, whose hash is `hash`: for integer keys a comparison
    /// of two integers, for text keys of their hashes first.
    func key(at position: Int, is id: QSAnyID, hash: UInt64) -> Bool {
        if let anyKeys { return anyHashes[position] == hash && anyKeys[position] == id }
        guard case .integer(let value) = id else { return false }
        return integers[position] == value
    }

    /// Every key, in entry order.
    var all: [QSAnyID] {
        anyKeys ?? integers.map(QSAnyID.integer)
    }

    /// Appends `id`, whose hash (from ``hash(of:)``) is `hash`.
    mutating func append(_ id: QSAnyID, hash: UInt64) {
        if anyKeys == nil, case .integer(let value) = id {
            integers.append(value)
            return
        }
        if anyKeys == nil { convertToAnyKeys() }
        anyKeys?.append(id)
        anyHashes.append(hash)
    }

    mutating func swapAt(_ first: Int, _ second: Int) {
        if anyKeys != nil {
            anyKeys?.swapAt(first, second)
            anyHashes.swapAt(first, second)
        } else {
            integers.swapAt(first, second)
        }
    }

    mutating func removeLast() {
        if anyKeys != nil {
            anyKeys?.removeLast()
            anyHashes.removeLast()
        } else {
            integers.removeLast()
        }
    }

    mutating func reserveCapacity(_ capacity: Int) {
        if anyKeys != nil {
            anyKeys?.reserveCapacity(capacity)
            anyHashes.reserveCapacity(capacity)
        } else {
            integers.reserveCapacity(capacity)
        }
    }

    /// Moves every key into `anyKeys`, for a table that is given its first text key.
    private mutating func convertToAnyKeys() {
        let capacity = Swift.max(integers.capacity, integers.count + 1)
        var converted: [QSAnyID] = []
        converted.reserveCapacity(capacity)
        anyHashes.reserveCapacity(capacity)
        for position in integers.indices {
            converted.append(.integer(integers[position]))
            anyHashes.append(hash(at: position))
        }
        anyKeys = converted
        integers = []
    }
}

/// How every ``IDTable`` hashes a uniqueID: alike in all of them, so that an ID hashed once can be
/// looked up in several (a fetch hashes each row's ID once, for the queue's table and the main
/// actor's; a text ID's hash reads the whole text). Make one and keep it for many hashes: it reads
/// the process's seed as it is made, and a global is checked for being set at every read.
struct IDHashing {
    private let seed = integerSeed

    func hash(of id: QSAnyID) -> UInt64 {
        switch id {
        case .integer(let value): hash(ofInteger: value)
        case .string: UInt64(bitPattern: Int64(id.hashValue))
        }
    }

    func hash(ofInteger value: Int64) -> UInt64 {
        UInt64(bitPattern: value) ^ seed
    }
}

private let integerSeed = UInt64.random(in: .min ... .max)
