import Foundation

/// Counts failed logins per username and per client address over a sliding minute.
///
/// When either has reached the limit, further attempts are refused with 429 and `Retry-After`
/// until the oldest failure is a minute old — before the password is even checked, so the
/// throttle also caps the bcrypt work an attacker can cause.
actor LoginThrottle {
    private let limit: Int
    private let window: Duration = .seconds(60)
    private var failures: [String: [ContinuousClock.Instant]] = [:]

    init(attemptsPerMinute: Int) {
        limit = max(1, attemptsPerMinute)
    }

    /// Seconds to wait before trying again, or nil when an attempt is allowed now.
    func retryAfter(keys: [String]) -> Int? {
        let now = ContinuousClock.now
        var wait: Duration?
        for key in keys {
            let recent = (failures[key] ?? []).filter { now - $0 < window }
            failures[key] = recent.isEmpty ? nil : recent
            if recent.count >= limit, let oldest = recent.first {
                let remaining = window - (now - oldest)
                wait = max(wait ?? .zero, remaining)
            }
        }
        return wait.map { max(1, Int($0.components.seconds) + 1) }
    }

    func recordFailure(keys: [String]) {
        let now = ContinuousClock.now
        for key in keys { failures[key, default: []].append(now) }
        if failures.count > 100_000 { prune(now: now) }
    }

    func recordSuccess(username: String) {
        failures["user:" + username] = nil
    }

    private func prune(now: ContinuousClock.Instant) {
        failures = failures.compactMapValues { instants in
            let recent = instants.filter { now - $0 < window }
            return recent.isEmpty ? nil : recent
        }
    }
}
