extension Array {
    /// `count` copies of `value`: what `init(repeating:count:)` makes, more cheaply where an
    /// array is made per object or per row.
    ///
    /// `init(repeating:count:)` allocates through the standard library's unspecialized code, which
    /// looks up the array storage's generic metadata on every call: several hundred instructions
    /// for an element type declared outside the standard library. Appending to reserved capacity
    /// is specialized in the caller, which looks the metadata up once and keeps it.
    init(filledWith value: Element, count: Int) {
        self = []
        // An empty array allocates nothing; reserving room for none still costs a call.
        guard count > 0 else { return }
        reserveCapacity(count)
        for _ in 0 ..< count { append(value) }
    }
}
