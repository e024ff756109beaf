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
