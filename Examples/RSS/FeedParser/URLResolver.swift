import Foundation

/// Turns the URL strings found in feeds into absolute `URL`s.
enum URLResolver {
    /// Resolves `reference` against `base`. Surrounding whitespace is ignored,
    /// characters not allowed in URLs (spaces, non-ASCII) are percent-encoded.
    /// Returns `nil` for empty or unusable references.
    static func resolve(_ reference: String?, against base: URL?) -> URL? {
        guard let trimmed = reference?.trimmedNonEmpty else { return nil }
        if trimmed.hasPrefix("https://") || trimmed.hasPrefix("http://"), let absolute = URL(string: trimmed) {
            return absolute
        }
        let candidate = URL(string: trimmed, relativeTo: base) ?? URL(string: encoded(trimmed), relativeTo: base)
        guard let url = candidate?.absoluteURL else { return nil }
        // A reference like "foo" with no base gives a scheme-less URL: useless.
        return url.scheme == nil ? nil : url
    }

    private static func encoded(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "#%")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
