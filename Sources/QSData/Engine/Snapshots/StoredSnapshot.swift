/// How a table of known rows (``KnownRowTable``) keeps a row's snapshot.
protocol StoredSnapshot {
    /// No snapshot.
    init()

    /// Keeps `snapshot`.
    init(_ snapshot: RowSnapshot)

    /// The snapshot kept, if any.
    var snapshot: RowSnapshot? { get }

    /// Whether a fetch in `epoch` can keep it for a new instance of the row.
    func isKept(in epoch: UInt64) -> Bool

    /// Changes its values at `columns` (positions in the layout), where it keeps any.
    mutating func patch(_ columns: [(index: Int, value: SQLValue)])
}

/// The whole snapshot: values (or none, for instances that mark their changes), lookup rows,
/// epoch.
struct WholeSnapshot: StoredSnapshot {
    private var kept: RowSnapshot?

    init() {}

    init(_ snapshot: RowSnapshot) {
        kept = snapshot
    }

    var snapshot: RowSnapshot? { kept }

    func isKept(in epoch: UInt64) -> Bool {
        kept?.isKept(in: epoch) ?? false
    }

    mutating func patch(_ columns: [(index: Int, value: SQLValue)]) {
        for column in columns { kept?.values[column.index] = column.value }
    }
}

/// Only the epoch, for a type whose instances mark their changes and which has no
/// relationships: its snapshots hold no values and no lookup rows, so the epoch is all they say.
/// One word per row instead of three.
struct EpochOnlySnapshot: StoredSnapshot {
    /// The epoch + 1; 0 for no snapshot.
    private var epochAfter: UInt64 = 0

    init() {}

    init(_ snapshot: RowSnapshot) {
        epochAfter = snapshot.epoch + 1
    }

    var snapshot: RowSnapshot? {
        epochAfter == 0 ? nil : RowSnapshot(values: [], lookups: [], epoch: epochAfter - 1)
    }

    func isKept(in epoch: UInt64) -> Bool {
        epochAfter == epoch + 1
    }

    mutating func patch(_ columns: [(index: Int, value: SQLValue)]) {}
}
