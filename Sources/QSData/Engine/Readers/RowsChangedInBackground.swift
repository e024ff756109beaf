/// The rows one background write changed in memory (or took out of a cache), by table, for the
/// main actor to look up as reads on readers come back (see ``QueueEntrance``).
///
/// Worked out when first asked, then extended: each part of the write is gone over once, but for
/// large saves, which record each chunk as they encode it and so are gone over again when they
/// have recorded more. A batch of 10,000 writes is not gone over again for every read.
@MainActor
final class RowsChangedInBackground {
    /// Every part of the write, in the order they were added; the first `folded` are in `rows`.
    private var touches: [MemoryTouches] = []
    private var folded = 0
    /// The parts that may record more after they were added (large saves).
    private var growing: [MemoryTouches] = []
    private var growingRecorded = 0
    private var rows: [String: Set<QSAnyID>] = [:]

    /// Adds what one more part of the write changes; `growing` when it records more later.
    func add(_ touches: MemoryTouches, growing: Bool) {
        self.touches.append(touches)
        if growing { self.growing.append(touches) }
    }

    func contains(_ id: QSAnyID, in table: String) -> Bool {
        if folded < touches.count {
            for added in touches[folded...] { fold(added) }
            folded = touches.count
        }
        let recorded = growing.reduce(0) { $0 + $1.recordedCount }
        if recorded != growingRecorded {
            // What a part records only grows, so going over it again adds what is new.
            for part in growing { fold(part) }
            growingRecorded = recorded
        }
        return rows[table]?.contains(id) ?? false
    }

    private func fold(_ part: MemoryTouches) {
        for (table, ids) in part.touchedRows() { rows[table, default: []].formUnion(ids) }
    }
}
