/// The snapshots of the rows a type's cached instances came from (see ``RowSnapshot``).
extension TypeBinding {
    func snapshots(for ids: [QSAnyID], isKnownMissing: [Bool]) -> [RowSnapshot?] {
        cache.snapshots(for: ids, isKnownMissing: isKnownMissing)
    }

    func setSnapshots(_ updates: consuming [(id: QSAnyID, snapshot: RowSnapshot?)]) {
        cache.setSnapshots(consume updates)
    }

    func patchSnapshots(_ ids: [QSAnyID], columns: [(index: Int, value: SQLValue)]) {
        cache.patchSnapshots(ids, columns: columns)
    }
}

extension AnyTypeBinding {
    /// Records new values for the named columns of these rows in their snapshots, where the type
    /// keeps instances and reads any of the columns. Returns whether it did.
    @discardableResult
    func patchSnapshots(_ ids: [QSAnyID], named columns: [(name: String, value: SQLValue)]) -> Bool {
        guard cachesInstances else { return false }
        let positioned = columns.compactMap { column in layout.index(of: column.name).map { (index: $0, value: column.value) } }
        guard !positioned.isEmpty else { return false }
        patchSnapshots(ids, columns: positioned)
        return true
    }
}
