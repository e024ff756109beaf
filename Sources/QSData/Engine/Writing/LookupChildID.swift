/// What a list of children's IDs holds: `Int64`s, or `QSAnyID`s when any ID is text.
protocol LookupChildID: Hashable {
    var anyID: QSAnyID { get }

    /// How many IDs at the start of `first` and `second` are the same.
    static func commonPrefixCount(_ first: UnsafeBufferPointer<Self>, _ second: UnsafeBufferPointer<Self>) -> Int
    /// How many IDs at the end of `first` and `second` are the same, counting up to `limit`.
    static func commonSuffixCount(_ first: UnsafeBufferPointer<Self>, _ second: UnsafeBufferPointer<Self>, atMost limit: Int) -> Int
}

extension LookupChildID {
    static func commonPrefixCount(_ first: UnsafeBufferPointer<Self>, _ second: UnsafeBufferPointer<Self>) -> Int {
        let count = min(first.count, second.count)
        var prefix = 0
        while prefix < count, first[prefix] == second[prefix] { prefix += 1 }
        return prefix
    }

    static func commonSuffixCount(_ first: UnsafeBufferPointer<Self>, _ second: UnsafeBufferPointer<Self>, atMost limit: Int) -> Int {
        var suffix = 0
        while suffix < limit, first[first.count - 1 - suffix] == second[second.count - 1 - suffix] { suffix += 1 }
        return suffix
    }
}

extension Int64: LookupChildID {
    /// Compared a block at a time: a block's loop has no early exit and no overflow check, so the
    /// compiler runs it on vector registers, and a parent of 1,000 children saved for one added
    /// compares its 1,000 unchanged ones at a fraction of an instruction each.
    static func commonPrefixCount(_ first: UnsafeBufferPointer<Int64>, _ second: UnsafeBufferPointer<Int64>) -> Int {
        let count = Swift.min(first.count, second.count)
        guard let firstStart = first.baseAddress, let secondStart = second.baseAddress else { return 0 }
        var prefix = 0
        while prefix + comparedBlock <= count, blocksMatch(firstStart + prefix, secondStart + prefix) { prefix += comparedBlock }
        while prefix < count, first[prefix] == second[prefix] { prefix += 1 }
        return prefix
    }

    static func commonSuffixCount(_ first: UnsafeBufferPointer<Int64>, _ second: UnsafeBufferPointer<Int64>, atMost limit: Int) -> Int {
        guard let firstEnd = first.baseAddress.map({ $0 + first.count }),
              let secondEnd = second.baseAddress.map({ $0 + second.count }) else { return 0 }
        var suffix = 0
        while suffix + comparedBlock <= limit,
              blocksMatch(firstEnd - suffix - comparedBlock, secondEnd - suffix - comparedBlock) {
            suffix += comparedBlock
        }
        while suffix < limit, first[first.count - 1 - suffix] == second[second.count - 1 - suffix] { suffix += 1 }
        return suffix
    }

    private static var comparedBlock: Int { 32 }

    /// Whether the `comparedBlock` IDs from `first` on are those from `second` on.
    private static func blocksMatch(_ first: UnsafePointer<Int64>, _ second: UnsafePointer<Int64>) -> Bool {
        var difference: Int64 = 0
        for offset in 0 ..< comparedBlock { difference |= first[offset] ^ second[offset] }
        return difference == 0
    }
}

extension QSAnyID: LookupChildID {
    var anyID: QSAnyID { self }
}
