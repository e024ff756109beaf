/// A set of uniqueIDs, kept the way ``IDTable`` keeps its keys: integers hashed by one
/// multiplication, text hashed once. About a tenth of what `Set<QSAnyID>` costs an insert, which
/// hashes every one with SipHash through `Hasher`.
struct IDSet {
    private var table = IDTable<Void>()

    var count: Int { table.count }

    /// Adds `id`; returns false when it was there already.
    mutating func insert(_ id: QSAnyID) -> Bool {
        table.position(adding: id) { () }.isNew
    }

    /// Makes room for `count` more IDs without growing on the way.
    mutating func reserveCapacity(adding count: Int) {
        table.reserveCapacity(adding: count)
    }
}
