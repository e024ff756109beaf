import Foundation

/// A person or organisation credited with a feed or an article.
public struct ParsedAuthor: Sendable, Hashable {
    /// Display name.
    public var name: String?
    /// Home page of the author.
    public var url: URL?
    /// Email address, without any `mailto:` prefix.
    public var email: String?
    /// Avatar image (JSON Feed only).
    public var avatarURL: URL?

    /// Creates an author value.
    public init(name: String? = nil, url: URL? = nil, email: String? = nil, avatarURL: URL? = nil) {
        self.name = name
        self.url = url
        self.email = email
        self.avatarURL = avatarURL
    }

    /// `true` when no field carries information.
    public var isEmpty: Bool {
        name == nil && url == nil && email == nil && avatarURL == nil
    }
}
