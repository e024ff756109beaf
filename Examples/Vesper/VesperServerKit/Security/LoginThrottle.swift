import Foundation

/// Counts events (failed logins, account creations, reset requests) per ``ThrottleKey`` over a
/// sliding minute; ``ThrottlePolicy`` decides the keys.
///
/// When any key has reached its limit, further attempts are refused with 429 and `Retry-After`
/// until the oldest event is a minute old — before the password is even checked, so the
/// throttle also caps the bcrypt work an attacker can cause.
actor LoginThrottle {
    /// The per-account login limit, from which ``ThrottlePolicy`` derives the others.
    let limit: Int
    private let window: Duration = .seconds(60)
    private var failures: [String: [ContinuousClock.Instant]] = [:]

    init(attemptsPerMinute: Int) {
        limit = max(1, attemptsPerMinute)
    }

    /// Seconds to wait before trying again, or nil when an attempt is allowed now.
    func retryAfter(keys: [ThrottleKey]) -> Int? {
        let now = ContinuousClock.now
        var wait: Duration?
        for key in keys {
            let recent = (failures[key.name] ?? []).filter { now - $0 < window }
            failures[key.name] = recent.isEmpty ? nil : recent
            if recent.count >= key.limit, let oldest = recent.first {
                let remaining = window - (now - oldest)
                wait = max(wait ?? .zero, remaining)
            }
        }
        return wait.map { max(1, Int($0.components.seconds) + 1) }
    }

    func recordFailure(keys: [ThrottleKey]) {
        let now = ContinuousClock.now
        for key in keys { failures[key.name, default: []].append(now) }
        if failures.count > 100_000 { prune(now: now) }
    }

    /// Forgets the events of `key` (a correct password clears its pair's failures).
    func forget(_ key: ThrottleKey) {
        failures[key.name] = nil
    }

    private func prune(now: ContinuousClock.Instant) {
        failures = failures.compactMapValues { instants in
            let recent = instants.filter { now - $0 < window }
            return recent.isEmpty ? nil : recent
        }
    }
}
