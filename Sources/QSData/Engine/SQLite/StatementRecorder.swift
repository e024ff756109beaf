/// Collects the statements a connection runs while recording is on.
///
/// Created on the main actor, then touched only on the database queue (by SQLite's trace
/// callback) until the queue hands back what it collected.
final class StatementRecorder: @unchecked Sendable {
    private(set) var statements: [String] = []

    func record(_ sql: String) {
        statements.append(sql)
    }
}
