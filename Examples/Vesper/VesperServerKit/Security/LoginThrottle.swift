import Foundation

/// Counts events (failed logins, account creations, reset requests) per ``ThrottleKey`` over a
/// sliding minute; ``ThrottlePolicy`` decides the keys.
///
/// When any key has reached its limit, further attempts are refused with 429 and `Retry-After`
/// until the oldest event is a minute old — before the password is even checked, so the
/// throttle also caps the bcrypt work an attacker can cause. The events live in the storage,
/// so every server instance on one database applies the same count.
struct LoginThrottle: Sendable {
    /// The per-account login limit, from which ``ThrottlePolicy`` derives the others.
    let limit: Int
    private let store: any LoginFailureStore
    private let clock: ServerClock
    private let windowMilliseconds: Int64 = 60_000

    init(attemptsPerMinute: Int, store: any LoginFailureStore, clock: ServerClock) {
        limit = max(1, attemptsPerMinute)
        self.store = store
        self.clock = clock
    }

    /// Seconds to wait before trying again, or nil when an attempt is allowed now.
    func retryAfter(keys: [ThrottleKey]) async throws -> Int? {
        let now = clock.milliseconds()
        let counts = try await store.loginFailures(keys: keys.map(\.name), since: now - windowMilliseconds)
        let waits = keys.compactMap { key -> Int64? in
            guard let failures = counts[key.name], failures.count >= key.limit else { return nil }
            return windowMilliseconds - (now - failures.oldest)
        }
        return waits.max().map { max(1, Int($0 / 1000) + 1) }
    }

    func recordFailure(keys: [ThrottleKey]) async throws {
        let now = clock.milliseconds()
        try await store.recordLoginFailure(keys: keys.map(\.name), date: now, forgetBefore: now - windowMilliseconds)
    }

    /// Forgets the events of `key` (a correct password clears its pair's failures).
    func forget(_ key: ThrottleKey) async throws {
        try await store.clearLoginFailures(key: key.name)
    }
}
