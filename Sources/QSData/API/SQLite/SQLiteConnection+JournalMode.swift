import CSQLite
import Foundation

extension SQLiteConnection {
    /// Switches the database to write-ahead logging (readers never block the writer), unless it
    /// is read-only. Called only once the file is known to be the app's own, so a foreign
    /// database is never changed.
    ///
    /// SQLite answers "database is locked" without waiting when another process holds the
    /// file while the mode changes (two processes opening a new database at once), so a busy
    /// answer is retried for up to five seconds.
    public func useWriteAheadLog() throws {
        guard !isReadOnly else { return }
        if case .text(let mode) = try fetchValue("PRAGMA journal_mode"), mode.lowercased() == "wal" { return }
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            do {
                try execute("PRAGMA journal_mode = WAL")
                return
            } catch let error as SQLiteError where error.code == SQLITE_BUSY || error.code == SQLITE_LOCKED {
                guard ContinuousClock.now < deadline else { throw error }
                usleep(10_000)
            }
        }
    }
}
