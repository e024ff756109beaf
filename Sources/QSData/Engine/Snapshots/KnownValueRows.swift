/// Which rows of value-type children the database queue knows exist: the uniqueIDs it read or
/// wrote, per table, for the tables of types that keep no instances and are the child of some
/// relationship.
///
/// A parent's save writes such a child only when its row does not exist yet (the copy a parent
/// holds may be older than the row), so an unchanged parent with value children runs no
/// statement when every child is known here, and one `INSERT … DO NOTHING` per child otherwise.
///
/// Only uniqueIDs are kept, never values: per row, one `QSAnyID` in an ``IDTable`` (24 bytes,
/// its stride, and 5 to 11 bytes of slots); a string ID also keeps its hash (8 bytes) and, past
/// 15 UTF-8 bytes, its own storage. An integer ID is hashed by one multiplication, as in the
/// tables of held instances, rather than through `Hasher`.
///
/// What it knows holds for one ``SnapshotTrust`` epoch: SQL the app runs or another connection
/// can delete rows behind it, so a new epoch starts it afresh. The store's deletes forget their
/// rows (see ``ChangeTracker/recordDeletion(of:fromTable:bindings:)``), and a rolled-back write
/// forgets the rows it added (``ChangeTracker/forgetTouched()``).
///
/// Owned by the database queue, through ``QueueState``.
final class KnownValueRows {
    private let trust: SnapshotTrust
    /// The tables whose rows are worth knowing; a table outside it is never kept.
    private let tables: Set<String>
    private var idsByTable: [String: IDTable<Void>] = [:]
    /// The epoch in which `idsByTable` was learnt.
    private var epoch: UInt64

    init(tables: Set<String>, trust: SnapshotTrust) {
        self.tables = tables
        self.trust = trust
        epoch = trust.epoch
    }

    /// Whether `table`'s rows are kept here at all.
    func tracks(_ table: String) -> Bool {
        tables.contains(table)
    }

    /// Records that the rows `ids` of `table` exist.
    func insert(_ ids: some Sequence<QSAnyID>, in table: String) {
        guard tables.contains(table) else { return }
        forgetIfDistrusted()
        // Taken out and put back, so that inserting into it copies nothing.
        var known = idsByTable.removeValue(forKey: table) ?? IDTable()
        for id in ids { _ = known.position(adding: id) {} }
        idsByTable[table] = known
    }

    /// Records that the rows `ids` of `table` exist; returns, per position, whether that row was not
    /// known before (every one, when `table`'s rows are not kept).
    func insertNoting(_ ids: [QSAnyID], in table: String) -> [Bool] {
        guard tables.contains(table) else { return Array(repeating: true, count: ids.count) }
        forgetIfDistrusted()
        var known = idsByTable.removeValue(forKey: table) ?? IDTable()
        let isNew = ids.map { known.position(adding: $0, {}).isNew }
        idsByTable[table] = known
        return isNew
    }

    /// Forgets the rows `ids` of `table` (deleted, or not known after all).
    func remove(_ ids: some Sequence<QSAnyID>, from table: String) {
        guard var known = idsByTable.removeValue(forKey: table) else { return }
        for id in ids { known.remove(id) }
        idsByTable[table] = known
    }

    private func forgetIfDistrusted() {
        guard epoch != trust.epoch else { return }
        idsByTable = [:]
        epoch = trust.epoch
    }
}
