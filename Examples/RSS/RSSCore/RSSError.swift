import Foundation

/// What can go wrong in the reader, in words fit for a terminal.
public enum RSSError: Error, Equatable, CustomStringConvertible {
    case missingResource(String)
    case noSuchArticle(String)
    case noSuchFeed(String)
    case invalidArgument(String)
    case cannotCreateFolder(path: String, reason: String)
    /// The database path names a file that isn't the reader's (another app's SQLite database,
    /// or no database at all); it was left as it was.
    case notAnRSSDatabase(path: String)
    /// Sync could not run (not logged in, an unreadable account file).
    case syncFailed(String)

    public var description: String {
        switch self {
        case .missingResource(let name):
            return "the app's resource \(name) is missing from the RSSCore bundle"
        case .noSuchArticle(let id):
            return "no article with ID '\(id)'"
        case .noSuchFeed(let id):
            return "no feed '\(id)' (see `rss feeds`)"
        case .invalidArgument(let message):
            return message
        case .cannotCreateFolder(let path, let reason):
            return "can't create the folder \(path): \(reason)"
        case .notAnRSSDatabase(let path):
            return "\(path) is not an RSS reader database (it was left as it was)"
        case .syncFailed(let message):
            return "sync: \(message)"
        }
    }
}
