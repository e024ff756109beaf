import Foundation
import FeedParser
import QSData

/// A person credited on articles. The uniqueID is a hash of name, URL and e-mail, so the same
/// person in many articles (and many feeds) is one row, shared through the lookup table.
public struct Author: QSDataObject, Sendable, Hashable {
    public let uniqueID: String
    public var name: String?
    public var url: String?
    public var email: String?
    public var avatarURL: String?

    public init(name: String?, url: String? = nil, email: String? = nil, avatarURL: String? = nil) {
        self.uniqueID = Author.uniqueID(name: name, url: url, email: email)
        self.name = name
        self.url = url
        self.email = email
        self.avatarURL = avatarURL
    }

    /// The author a feed names; nil when the feed gave nothing to identify them by.
    public init?(parsed: ParsedAuthor) {
        guard parsed.name != nil || parsed.url != nil || parsed.email != nil else { return nil }
        self.init(name: parsed.name, url: parsed.url?.absoluteString, email: parsed.email,
                  avatarURL: parsed.avatarURL?.absoluteString)
    }

    /// The identity of an author: equal for equal name, URL and e-mail.
    public static func uniqueID(name: String?, url: String?, email: String?) -> String {
        let separator = "\u{1F}"
        return ArticleIdentifier.fnv1a64Hex([name ?? "", url ?? "", email ?? ""].joined(separator: separator))
    }

    /// Name, else e-mail, else URL.
    public var displayName: String { name ?? email ?? url ?? uniqueID }

    public init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        name = try row["name"]
        url = try row["url"]
        email = try row["email"]
        avatarURL = try row["avatarURL"]
    }

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
        row["url"] = url
        row["email"] = email
        row["avatarURL"] = avatarURL
    }
}
