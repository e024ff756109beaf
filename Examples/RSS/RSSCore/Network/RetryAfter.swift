import FeedParser
import Foundation

/// A server's `Retry-After` header: wait this many seconds, or until this date.
public enum RetryAfter: Sendable, Equatable {
    case seconds(Int)
    case date(Date)

    /// The longest wait honoured: a server asking for more is asked again after a day.
    public static let longestWait: TimeInterval = 86_400

    /// Reads the header's value: a number of seconds, or an HTTP date
    /// (`Wed, 21 Oct 2025 07:28:00 GMT`). `nil` for anything else.
    public init?(header: String) {
        let value = header.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(value) {
            guard seconds >= 0 else { return nil }
            self = .seconds(seconds)
        } else if let date = DateParser.date(from: value) {
            self = .date(date)
        } else {
            return nil
        }
    }

    /// When the wait ends, counted from `now`, and never later than ``longestWait`` from it.
    public func end(after now: Date) -> Date {
        let end = switch self {
        case .seconds(let seconds): now.addingTimeInterval(TimeInterval(seconds))
        case .date(let date): date
        }
        return min(end, now.addingTimeInterval(Self.longestWait))
    }
}
