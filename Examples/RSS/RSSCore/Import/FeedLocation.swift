import Foundation

/// Where a feed, a folder of feeds or a subscription list is read from.
public enum FeedLocation: Sendable, Hashable, CustomStringConvertible {
    /// A local file or directory.
    case file(URL)
    /// An http or https URL.
    case remote(URL)

    /// Reads a command-line argument: an http(s) or file URL, or a path (relative to the
    /// current directory, `~` expanded).
    public init(argument: String) throws(RSSError) {
        let lowercased = argument.lowercased()
        if lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") {
            guard let url = URL(string: argument), url.host != nil else {
                throw .invalidArgument("'\(argument)' is not a valid URL")
            }
            self = .remote(url)
        } else if lowercased.hasPrefix("file://") {
            guard let url = URL(string: argument), url.isFileURL else {
                throw .invalidArgument("'\(argument)' is not a valid file URL")
            }
            self = .file(url.standardizedFileURL)
        } else if lowercased.contains("://") {
            throw .invalidArgument("'\(argument)': only http, https and file URLs can be imported")
        } else {
            let path = (argument as NSString).expandingTildeInPath
            self = .file(URL(fileURLWithPath: path).standardizedFileURL)
        }
    }

    /// A URL found in an OPML list.
    init?(url: URL) {
        switch url.scheme?.lowercased() {
        case "http", "https": self = .remote(url)
        case "file": self = .file(url.standardizedFileURL)
        default: return nil
        }
    }

    /// The URL the feed is identified by: it becomes the feed's uniqueID and is part of every
    /// article's uniqueID.
    public var url: URL {
        switch self {
        case .file(let url), .remote(let url): return url
        }
    }

    /// The path for files, the URL for the web: what a person typed.
    public var description: String {
        switch self {
        case .file(let url): return url.path
        case .remote(let url): return url.absoluteString
        }
    }
}
