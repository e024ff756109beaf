/// The rows one background write changed in memory (or took out of a cache), by table, for the
/// main actor to look up as reads on readers come back (see ``QueueEntrance``).
///
/// Worked out once, when first asked, and again only when the write has recorded more since (a
/// large save records each chunk as it encodes it): a write of 100,000 rows is not gone over
/// again for every read.
@MainActor
final class RowsChangedInBackground {
    private let touches: [MemoryTouches]
    private var rows: [String: Set<QSAnyID>] = [:]
    private var recordedCount = -1

    init(_ touches: [MemoryTouches]) {
        self.touches = touches
    }

    func contains(_ id: QSAnyID, in table: String) -> Bool {
        let count = touches.reduce(0) { $0 + $1.recordedCount }
        if count != recordedCount {
            rows = [:]
            for (table, ids) in touches.flatMap({ $0.touchedRows() }) { rows[table, default: []].formUnion(ids) }
            recordedCount = count
        }
        return rows[table]?.contains(id) ?? false
    }
}
