/// The snapshots of the rows a type's cached instances came from (see ``RowSnapshot``).
extension TypeBinding {
    func snapshot(for id: QSAnyID) -> RowSnapshot? {
        cache.snapshot(for: id)
    }

    func setSnapshot(_ snapshot: RowSnapshot?, for id: QSAnyID) {
        cache.setSnapshot(snapshot, for: id)
    }

    func patchSnapshots(_ ids: [QSAnyID], columns: [(index: Int, value: SQLValue)]) {
        cache.patchSnapshots(ids, columns: columns)
    }
}
