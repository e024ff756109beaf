/// The keys of an ``IDTable``, in entry order, kept as small as they allow: as integers alone
/// (8 bytes a key, where a ``QSAnyID`` takes 24) until a text key arrives, then every key as a
/// ``QSAnyID``. A type's uniqueIDs are all of one kind, so a table of integer IDs never converts.
struct IDKeys {
    private var integers: [Int64] = []
    /// Every key, once any is text; nil while all are integers.
    private var anyKeys: [QSAnyID]?

    var count: Int { anyKeys?.count ?? integers.count }
    var capacity: Int { anyKeys?.capacity ?? integers.capacity }
    var indices: Range<Int> { 0 ..< count }

    subscript(position: Int) -> QSAnyID {
        if let anyKeys { return anyKeys[position] }
        return .integer(integers[position])
    }

    /// Whether the key at `position` is `id`: for integer keys a comparison of two integers.
    func key(at position: Int, is id: QSAnyID) -> Bool {
        if let anyKeys { return anyKeys[position] == id }
        guard case .integer(let value) = id else { return false }
        return integers[position] == value
    }

    /// Every key, in entry order.
    var all: [QSAnyID] {
        anyKeys ?? integers.map(QSAnyID.integer)
    }

    mutating func append(_ id: QSAnyID) {
        if anyKeys == nil, case .integer(let value) = id {
            integers.append(value)
            return
        }
        if anyKeys == nil { convertToAnyKeys() }
        anyKeys?.append(id)
    }

    mutating func swapAt(_ first: Int, _ second: Int) {
        if anyKeys != nil {
            anyKeys?.swapAt(first, second)
        } else {
            integers.swapAt(first, second)
        }
    }

    mutating func removeLast() {
        if anyKeys != nil {
            anyKeys?.removeLast()
        } else {
            integers.removeLast()
        }
    }

    mutating func reserveCapacity(_ capacity: Int) {
        if anyKeys != nil {
            anyKeys?.reserveCapacity(capacity)
        } else {
            integers.reserveCapacity(capacity)
        }
    }

    /// Moves every key into `anyKeys`, for a table that is given its first text key.
    private mutating func convertToAnyKeys() {
        var converted: [QSAnyID] = []
        converted.reserveCapacity(Swift.max(integers.capacity, integers.count + 1))
        for value in integers { converted.append(.integer(value)) }
        anyKeys = converted
        integers = []
    }
}
