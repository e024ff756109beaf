import Foundation

/// Article HTML as readable text.
public enum HTMLText {
    /// HTML reduced to readable text: tags dropped, block ends as line breaks, entities decoded.
    public static func plainText(fromHTML html: String) -> String {
        var text = html.replacingOccurrences(of: "<(br|/p|/div|/li|/h[1-6])[^>]*>", with: "\n", options: [.regularExpression, .caseInsensitive])
        text = text.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        let entities = ["&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&apos;": "'", "&nbsp;": " ", "&amp;": "&"]
        for (entity, character) in entities { text = text.replacingOccurrences(of: entity, with: character) }
        text = text.replacingOccurrences(of: "\n{3,}", with: "\n\n", options: .regularExpression)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
