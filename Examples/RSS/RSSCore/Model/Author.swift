import FeedParser

// Author is generated from RSS.plist: a person credited on articles. The uniqueID is a hash of
// name, URL and e-mail, so the same person in many articles (and many feeds) is one row, shared
// through the lookup table.
extension Author {
    public init(name: String?, url: String? = nil, email: String? = nil, avatarURL: String? = nil) {
        self.init(uniqueID: Author.uniqueID(name: name, url: url, email: email), avatarURL: avatarURL, email: email, name: name, url: url)
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
}
