/// Tells a save what the database already holds for a row, from the snapshots the store keeps
/// for the instances it holds (see ``RowSnapshot``), and keeps those snapshots true.
///
/// One tracker serves one transaction on the database queue. Snapshots change as the
/// transaction writes, so later writes in the same transaction see them; if the transaction
/// rolls back, ``forgetTouched()`` drops every snapshot it changed (the next save of those rows
/// then checks the database, which is always safe). Keeping the snapshots a save replaced, to put
/// them back, would cost every save for the sake of the rare one that rolls back.
final class ChangeTracker {
    private let state: QueueState
    /// Rows whose snapshots go if the transaction rolls back: saved, patched by bulk updates, or
    /// saved from instances that record what they set.
    private var touched: [(rows: KnownRows, ids: [QSAnyID])] = []
    /// The instances of rows deleted, to put back if the transaction rolls back (so that a
    /// rollback's re-read of a parent finds the child instances the app holds).
    private var deleted: [(rows: KnownRows, instances: [(id: QSAnyID, instance: Instance)])] = []
    /// The value-type rows this transaction made known (see ``KnownValueRows``), by table, to
    /// forget if it rolls back.
    private var madeKnown: [String: [QSAnyID]] = [:]
    /// The instances reads in this transaction made (reading the app's own SQL back), which the
    /// queue's tables let go of if it rolls back.
    private var made: [MadeInstances] = []
    /// Per table, the rows this transaction's saves inserted again for instances that were held
    /// when a read found the rows deleted (see ``InstancesFoundDeleted``), for the commit hook.
    private(set) var rowsInsertedAgain: [String: [QSAnyID]] = [:]

    init(state: QueueState) {
        self.state = state
    }

    /// Keeps the instances the app saved for a group's rows, and returns the rows' snapshots, in order.
    func adoptInstancesAndReadSnapshots(of group: SaveGroup) -> [RowSnapshot?] {
        guard group.binding.cachesInstances else { return Array(repeating: nil, count: group.ids.count) }
        return state.knownRows(of: group.binding).adopt(group.instances, ids: group.ids)
    }

    /// Records what some rows of `binding` now hold.
    func record(_ recorded: consuming RecordedSnapshots, of binding: any AnyTypeBinding) {
        guard binding.cachesInstances, !recorded.isEmpty else { return }
        let rows = state.knownRows(of: binding)
        let (ids, snapshots) = recorded.take()
        touched.append((rows, ids))
        rows.setSnapshots(snapshots, of: ids)
    }

    /// Records that the rows `ids` changed the columns named `columns` in place, for every type
    /// on the table that reads them: the hash their snapshots keep no longer says what they hold
    /// (see ``KnownRows/forgetValues(of:)``).
    ///
    /// `instancesShowIt` says whether the instances held show the new values already (a bulk
    /// update by IDs and a save's patch of other types on the table change them before the SQL
    /// runs). An update `where:` changes them only once it commits, and a save encoded before
    /// that holds the old values: for instances that record what they set, no mark says so, so
    /// those rows lose their snapshots and their next save writes them whole.
    func recordUpdate(of ids: [QSAnyID], columns: [String], bindings: [any AnyTypeBinding], instancesShowIt: Bool) {
        for binding in bindings where binding.cachesInstances {
            guard columns.contains(where: { binding.layout.index(of: $0) != nil }) else { continue }
            let rows = state.knownRows(of: binding)
            if binding.tracksChanges, !instancesShowIt {
                rows.forgetSnapshots(of: ids)
            } else {
                rows.forgetValues(of: ids)
            }
            touched.append((rows, ids))
        }
    }

    /// Notes that a save is about to write the rows `ids` of `binding`, whose instances record
    /// what they set: those instances gave their marks up to it, so if it rolls back the rows
    /// lose their snapshots, and the next save of each writes the row whole.
    func recordSaving(_ ids: [QSAnyID], of binding: any AnyTypeBinding) {
        guard binding.tracksChanges, !ids.isEmpty else { return }
        touched.append((state.knownRows(of: binding), ids))
    }

    /// Records that the rows of `group`, of a type that keeps no instances, exist, before the save
    /// writes them, in one go for the group (a rollback forgets them again); returns, per row,
    /// whether it was not known before. A child reached through a parent is inserted only then:
    /// the copy a parent holds may be older than its row. Empty for a type that keeps instances.
    func recordExisting(_ group: SaveGroup, in table: String) -> [Bool] {
        guard !group.binding.cachesInstances else { return [] }
        let isNew = state.knownValueRows.insertNoting(group.ids, in: table)
        if state.knownValueRows.tracks(table) {
            madeKnown[table, default: []].append(contentsOf: group.ids.indices.lazy.filter { isNew[$0] }.map { group.ids[$0] })
        }
        return isNew
    }

    /// Records that the rows `ids` of `table` are gone, for every type on the table.
    func recordDeletion(of ids: [QSAnyID], fromTable table: String, bindings: [any AnyTypeBinding]) {
        // Not put back on a rollback: a row not known to exist only costs its next parent's save
        // an `INSERT … DO NOTHING`.
        state.knownValueRows.remove(ids, from: table)
        for binding in bindings where binding.cachesInstances {
            let rows = state.knownRows(of: binding)
            deleted.append((rows, rows.removeReturningInstances(ids)))
        }
    }

    /// Records that a save inserted the row `id` of `table` again, for an instance that was held
    /// when a read found the row deleted.
    func recordInsertedAgain(_ id: QSAnyID, table: String) {
        rowsInsertedAgain[table, default: []].append(id)
    }

    /// Records that a read in this transaction replaced the snapshots of `ids` in `rows`.
    func recordReread(_ ids: [QSAnyID], in rows: KnownRows) {
        guard !ids.isEmpty else { return }
        touched.append((rows, ids))
    }

    /// Takes the rows `ids`, which a read in this transaction found gone, out of `rows`.
    func recordRemoval(_ ids: [QSAnyID], from rows: KnownRows) {
        guard !ids.isEmpty else { return }
        deleted.append((rows, rows.removeFoundDeleted(ids)))
    }

    /// Records the instances a read in this transaction made.
    func recordMade(_ instances: MadeInstances) {
        made.append(instances)
    }

    /// Drops the snapshots of `ids` (for instance parents whose lookup rows a delete removed):
    /// their next save checks the database.
    func forgetSnapshots(of ids: [QSAnyID], bindings: [any AnyTypeBinding]) {
        for binding in bindings where binding.cachesInstances {
            state.knownRows(of: binding).forgetSnapshots(of: ids)
        }
    }

    /// The transaction rolled back: what it recorded is not what the database holds.
    func forgetTouched() {
        for (rows, ids) in touched {
            rows.forgetSnapshots(of: ids)
        }
        for (rows, instances) in deleted {
            for (id, instance) in instances { rows.putBack(instance, id: id) }
        }
        for (table, ids) in madeKnown {
            state.knownValueRows.remove(ids, from: table)
        }
        for instances in made { instances.forget(in: state) }
        touched = []
        deleted = []
        madeKnown = [:]
        made = []
    }
}

/// The snapshots a save wrote for one group of rows.
struct RecordedSnapshots {
    /// Each ID once, and at the same position the snapshot recorded for it.
    private var ids: [QSAnyID] = []
    private var snapshots: [RowSnapshot] = []
    /// Where each ID's snapshot is, kept only when an ID can come twice in the group.
    private var positions: [QSAnyID: Int]?

    init(expecting count: Int, idsRepeat: Bool) {
        ids.reserveCapacity(count)
        snapshots.reserveCapacity(count)
        positions = idsRepeat ? Dictionary(minimumCapacity: count) : nil
    }

    var isEmpty: Bool { ids.isEmpty }

    /// What this group already recorded for `id`, for a row saved twice in it.
    func snapshot(of id: QSAnyID) -> RowSnapshot? {
        guard let position = positions?[id] else { return nil }
        return snapshots[position]
    }

    /// Records that the row `id` now holds `snapshot`.
    mutating func record(_ snapshot: RowSnapshot, for id: QSAnyID) {
        if let position = positions?[id] {
            snapshots[position] = snapshot
            return
        }
        positions?[id] = ids.count
        ids.append(id)
        snapshots.append(snapshot)
    }

    /// Hands over the IDs recorded, each once, and their snapshots.
    consuming func take() -> (ids: [QSAnyID], snapshots: [RowSnapshot]) {
        (ids, snapshots)
    }
}
