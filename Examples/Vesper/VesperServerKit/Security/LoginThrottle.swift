import Foundation

/// Counts failed logins per key (a username, a client address) over a sliding minute (§10.4).
///
/// When any key has reached the limit, further attempts are refused with 429 and `Retry-After`
/// until the oldest failure is a minute old — before the password is even checked, so the
/// throttle also caps the bcrypt work an attacker can cause. The failures live in the storage,
/// so every server instance on one database applies the same count.
struct LoginThrottle: Sendable {
    private let limit: Int
    private let store: any LoginFailureStore
    private let windowMilliseconds: Int64 = 60_000

    init(attemptsPerMinute: Int, store: any LoginFailureStore) {
        limit = max(1, attemptsPerMinute)
        self.store = store
    }

    /// Seconds to wait before trying again, or nil when an attempt is allowed now.
    func retryAfter(keys: [String]) async throws -> Int? {
        let now = VesperAPI.nowMilliseconds()
        let failures = try await store.loginFailures(keys: keys, since: now - windowMilliseconds)
        let waits = failures.values.filter { $0.count >= limit }.map { windowMilliseconds - (now - $0.oldest) }
        return waits.max().map { max(1, Int($0 / 1000) + 1) }
    }

    func recordFailure(keys: [String]) async throws {
        let now = VesperAPI.nowMilliseconds()
        try await store.recordLoginFailure(keys: keys, date: now, forgetBefore: now - windowMilliseconds)
    }

    func recordSuccess(username: String) async throws {
        try await store.clearLoginFailures(key: "user:" + username)
    }
}
