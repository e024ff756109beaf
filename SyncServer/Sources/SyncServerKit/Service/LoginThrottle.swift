import Foundation

/// Refuses logins for a username after too many failures in a window: a password can't be
/// guessed at the server's speed. Kept in memory, per instance.
actor LoginThrottle {
    let failuresAllowed: Int
    let window: TimeInterval
    private var failures: [String: [Date]] = [:]

    init(failuresAllowed: Int = 10, window: TimeInterval = 15 * 60) {
        self.failuresAllowed = failuresAllowed
        self.window = window
    }

    /// Seconds until `username` may try again; nil when it may now.
    func waitBeforeTrying(_ username: String, now: Date) -> Int? {
        let recent = (failures[username] ?? []).filter { now.timeIntervalSince($0) < window }
        failures[username] = recent
        guard recent.count >= failuresAllowed, let oldest = recent.first else { return nil }
        return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
    }

    func recordFailure(_ username: String, now: Date) {
        failures[username, default: []].append(now)
    }

    func recordSuccess(_ username: String) {
        failures[username] = nil
    }
}
