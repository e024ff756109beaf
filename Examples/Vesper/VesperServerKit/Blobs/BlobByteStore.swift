import Foundation

/// Where attachment bytes live: files on the instance's disk (SQLite storage), or a table in
/// PostgreSQL, so that any instance serves any blob. Names are validated before they get here.
protocol BlobByteStore: Sendable {
    /// Stores the bytes, replacing any earlier ones, atomically.
    func write(_ data: Data, name: String, userID: Int64) async throws
    /// The bytes, or nil when there are none.
    func read(name: String, userID: Int64) async throws -> Data?
    func remove(name: String, userID: Int64) async throws
}
