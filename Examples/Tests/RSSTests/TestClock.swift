import Foundation

/// The time as a test sets it: `now` for ``FeedRefresher``, moved forward by the test.
@MainActor
final class TestClock {
    var now: Date

    /// 1 July 2025, 10:00 UTC, unless told otherwise.
    init(now: Date = Date(timeIntervalSince1970: 1_751_364_000)) {
        self.now = now
    }

    func advance(seconds: TimeInterval) {
        now = now.addingTimeInterval(seconds)
    }

    /// `date` as an HTTP header writes it: `Tue, 01 Jul 2025 11:00:00 GMT`.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
