/// How a store uses its connections to the file: how many reader connections it may open, how
/// long a read waits for one, and how large the write-ahead log is kept.
///
/// ```swift
/// let store = try await QSStore.open(
///     at: databaseURL, model: model, schema: schema, types: [Note.self, Tag.self],
///     options: QSStoreOptions(readerCount: 2))
/// ```
public struct QSStoreOptions: Sendable {
    /// The most reader connections the store opens, each when first needed. Reads go to them only
    /// while a background write runs (see ``QSStore/performInBackground(_:)``). At least 1;
    /// 4 by default.
    public var readerCount: Int
    /// How long a read waits for a reader connection when every one is busy, before it throws
    /// ``QSDataError/readersBusy(waited:)``. 10 seconds by default.
    public var readerWaitLimit: Duration
    /// The size, in bytes, the write-ahead log file is cut back to once SQLite has copied it into
    /// the database (SQLite's `journal_size_limit`). A long write grows the log past this while
    /// it runs; the next checkpoint after it brings the file back down. 16 MiB by default.
    public var walSizeLimit: Int

    public init(readerCount: Int = 4, readerWaitLimit: Duration = .seconds(10), walSizeLimit: Int = 16 << 20) {
        self.readerCount = max(1, readerCount)
        self.readerWaitLimit = readerWaitLimit
        self.walSizeLimit = max(0, walSizeLimit)
    }
}
