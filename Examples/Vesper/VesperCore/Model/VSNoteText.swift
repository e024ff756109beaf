import Foundation

/// The values a note calculates from its text: the timeline's truncated text and the links.
enum VSNoteText {
    /// The longest truncated text, in characters, before the ellipsis.
    static let truncatedLength = 200

    /// The text with whitespace runs collapsed, cut at ``truncatedLength`` characters; nil when blank.
    static func truncated(_ text: String) -> String? {
        let collapsed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !collapsed.isEmpty else { return nil }
        guard collapsed.count > truncatedLength else { return collapsed }
        return collapsed.prefix(truncatedLength).trimmingCharacters(in: .whitespaces) + "…"
    }

    /// The http and https links in the text, in order of appearance, without duplicates.
    /// Trailing punctuation that usually ends a sentence is not part of a link.
    static func links(in text: String) -> [String] {
        var found: [String] = []
        for word in text.split(whereSeparator: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" }) {
            var candidate = word.drop { $0 == "(" || $0 == "[" }
            while let last = candidate.last, ".,;:!?)]'".contains(last) { candidate = candidate.dropLast() }
            let link = String(candidate)
            let lowered = link.lowercased()
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"),
                  let url = URL(string: link), url.host != nil,
                  !found.contains(link) else { continue }
            found.append(link)
        }
        return found
    }
}
