import Foundation

extension SQLiteConnection {
    /// The size of the database's write-ahead log file, in bytes; 0 when there is none.
    var writeAheadLogSize: Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Copies the whole write-ahead log into the database and cuts the file to nothing, when it has
    /// grown past `limit` bytes (a long write does that). Waits for the reads still using the log,
    /// as long as the busy timeout allows; when they outlast it, the log stays as it is until the
    /// next time, as SQLite's own checkpoints would leave it.
    func truncateWriteAheadLog(ifLargerThan limit: Int) {
        guard writeAheadLogSize > limit, !isReadOnly else { return }
        // The answer (busy, frames in the log, frames copied) says whether it all went; either
        // way nothing is lost, so there is nothing to report.
        _ = try? fetchRows("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
