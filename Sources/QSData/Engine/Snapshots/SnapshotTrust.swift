/// Whether the snapshots the store keeps (see ``RowSnapshot``) still say what their rows hold,
/// so that a fetch can keep the snapshot of a row's dead instance for the new instance instead of
/// encoding a new one.
///
/// The store's own writes keep every snapshot true: saves record what they wrote, bulk updates
/// patch what they changed, deletes drop theirs, and a rollback drops what it touched. Two
/// things change rows behind the snapshots: SQL the app runs itself, and other connections to the
/// file. Either ends an *epoch*. A snapshot carries the epoch in which it was known to be true,
/// and only a snapshot of the current epoch is kept by a fetch.
///
/// Changes are noticed through SQLite's data version of the file, which moves with every commit,
/// by this connection or another; the store explains away the moves of its own writes, so any
/// other move ends the epoch.
///
/// Part of the ``QueueState``: touched only on the database queue.
final class SnapshotTrust {
    /// The current epoch. It starts at 1, so a snapshot that carries 0 is never kept.
    private(set) var epoch: UInt64 = 1
    /// The data version after the store's last own commit, or as last noticed.
    private var explainedVersion: UInt32?

    /// Ends the epoch if the file changed since the store last looked, other than by the store's
    /// own writes. Call where SQLite has just looked at the file: after a statement's first step,
    /// or at the start of a write transaction.
    /// A file whose storage cannot tell its data version ends the epoch every time.
    func noticeChanges(on connection: SQLiteConnection) {
        let version = connection.dataVersion
        if version == nil || version != explainedVersion {
            epoch += 1
            explainedVersion = version
        }
    }

    /// The store's own write transaction committed: what it changed, its snapshots say.
    func explainCommit(on connection: SQLiteConnection) {
        explainedVersion = connection.dataVersion
    }

    /// The app ran its own SQL inside one of the store's write transactions: whatever it changed,
    /// no snapshot says, so none recorded before can be kept.
    func distrustAll() {
        epoch += 1
    }
}
