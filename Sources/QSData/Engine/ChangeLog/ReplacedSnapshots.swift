/// The snapshots that reads of other writers' changes replaced, kept for the saves the app
/// encoded before the main actor merged those reads into its instances.
///
/// A read of another writer's commit replaces the snapshots of the rows it names at once, on the
/// queue; the main actor merges the new values into its instances later. A save of an instance
/// that does not mark its changes, encoded in between, still shows the row as it was, and must be
/// compared with the snapshot as it was: against the new one, every column the other writer
/// changed would look changed by the app, and the save would write the old values back. So must
/// the children a parent lists, whichever kind of instance it is: a list the app left as it was
/// is not written over the other writer's.
///
/// Each read is numbered. A save carries the number of the last read the main actor had merged
/// when it encoded the save (``OutsideReadsMerged``); the queue compares it with the snapshot
/// from before the first read after that. Database queue only.
final class ReplacedSnapshots {
    private struct Replaced {
        let read: UInt64
        var snapshot: RowSnapshot
    }

    private var byType: [ObjectIdentifier: [QSAnyID: [Replaced]]] = [:]
    /// The number of the last read that replaced snapshots.
    private(set) var lastRead: UInt64 = 0
    /// The number of the earliest read whose snapshots are kept: nothing is forgotten before a
    /// save shows that one merged.
    private var earliestKept = UInt64.max

    var isEmpty: Bool { byType.isEmpty }

    /// Numbers a new read of other writers' changes.
    func nextRead() -> UInt64 {
        lastRead += 1
        return lastRead
    }

    /// Keeps `snapshots` (those with a hash of values or lookup rows) of the rows `ids` of `binding`'s type, as they were
    /// before `read` replaced them.
    func keep(_ snapshots: [RowSnapshot?], of ids: [QSAnyID], binding: any AnyTypeBinding, replacedBy read: UInt64) {
        var rows = byType[ObjectIdentifier(binding), default: [:]]
        for (id, snapshot) in zip(ids, snapshots) {
            guard let snapshot, snapshot.valuesHash != nil || !snapshot.lookups.isEmpty else { continue }
            rows[id, default: []].append(Replaced(read: read, snapshot: snapshot))
            earliestKept = min(earliestKept, read)
        }
        if !rows.isEmpty { byType[ObjectIdentifier(binding)] = rows }
    }

    /// The snapshot of the row `id` that a save encoded once the main actor had merged the reads
    /// up to `merged` compares with, when a later read replaced it; nil otherwise.
    func snapshot(of id: QSAnyID, binding: any AnyTypeBinding, encodedAfter merged: UInt64) -> RowSnapshot? {
        byType[ObjectIdentifier(binding)]?[id]?.first { $0.read > merged }?.snapshot
    }

    /// A save encoded once the main actor had merged the reads up to `merged` wrote the app's
    /// columns of the row `id` from `valuesHash`, the row as its instance showed it: a later save
    /// encoded before the same merge compares with that, since the app changed nothing since then
    /// but what differs from it.
    func saved(_ id: QSAnyID, binding: any AnyTypeBinding, encodedAfter merged: UInt64, valuesHash: RowHash) {
        let type = ObjectIdentifier(binding)
        guard let list = byType[type]?[id], let position = list.firstIndex(where: { $0.read > merged }) else { return }
        byType[type]?[id]?[position].snapshot.valuesHash = valuesHash
    }

    /// Forgets what only saves encoded before the main actor merged the reads up to `merged`
    /// would compare with: the saves that reach the queue from now on were encoded after. Called
    /// as each save is written, and by work the main actor enqueues once it has merged a read
    /// (every save encoded before that merge was enqueued before that work).
    func forget(upTo merged: UInt64) {
        guard merged >= earliestKept else { return }
        keepOnly { $0.read > merged }
    }

    /// Forgets what the reads numbered `first` and later kept: reads made inside a write
    /// transaction that then rolled back. What they kept may hold that transaction's own writes,
    /// never committed, and the main actor never merges those reads; the next look at the log
    /// reads the same rows again.
    func forgetReads(from first: UInt64) {
        guard first <= lastRead, !byType.isEmpty else { return }
        keepOnly { $0.read < first }
    }

    private func keepOnly(_ isKept: (Replaced) -> Bool) {
        earliestKept = .max
        for (type, rows) in byType {
            let kept = rows.compactMapValues { replaced in
                let left = replaced.filter(isKept)
                return left.isEmpty ? nil : left
            }
            byType[type] = kept.isEmpty ? nil : kept
            for replaced in kept.values.joined() { earliestKept = min(earliestKept, replaced.read) }
        }
    }
}

/// How many reads of other writers' changes the main actor has merged into its instances: a save
/// encoded now shows the rows as those reads left them (see ``ReplacedSnapshots``).
@MainActor
final class OutsideReadsMerged {
    private(set) var count: UInt64 = 0
    /// Hands the queue what it can forget once a read is merged: set by the store as it opens.
    var whenMerged: ((UInt64) -> Void)?

    nonisolated init() {}

    /// The read numbered `read` is merged. Reads are merged in the order they were made, but for
    /// a refresh, merged when its caller resumes: the count never goes back.
    func merged(_ read: UInt64) {
        count = max(count, read)
        whenMerged?(read)
    }
}
