import Foundation

/// Computes ``ParsedItem/uniqueID``: a stable, deterministic identifier for an
/// article within a subscription.
///
/// The rule: take the feed URL (`absoluteString` of the URL given to
/// ``FeedParser/parse(data:url:documentURL:)``), a newline, and the first available of
/// 1. `id:` + the feed's own identifier (RSS `guid`, RDF `rdf:about`, Atom `id`,
///    JSON Feed `id`), trimmed;
/// 2. `link:` + the article's absolute URL;
/// 3. `title:` + title + U+001F + `date:` + published date in whole seconds since
///    1970 (empty when absent) — used when there is a title or a date;
/// 4. `content:` + HTML content, else text content, else summary.
///
/// The UTF-8 bytes of that string are hashed with 64-bit FNV-1a and written as
/// 16 lowercase hexadecimal digits. The same article in the same subscription
/// therefore gets the same ID in every parse, on every platform.
public enum ArticleIdentifier {
    /// The identity key (before hashing) for the given article fields.
    public static func key(feedURL: URL, externalID: String?, link: URL?, title: String?,
                           datePublished: Date?, content: String?) -> String {
        let prefix = feedURL.absoluteString + "\n"
        if let externalID, !externalID.isEmpty {
            return prefix + "id:" + externalID
        }
        if let link {
            return prefix + "link:" + link.absoluteString
        }
        if title != nil || datePublished != nil {
            let seconds = datePublished.map { String(Int64(floor($0.timeIntervalSince1970))) } ?? ""
            return prefix + "title:" + (title ?? "") + "\u{1F}date:" + seconds
        }
        return prefix + "content:" + (content ?? "")
    }

    /// The unique ID for the given article fields: `fnv1a64Hex(key(...))`.
    public static func uniqueID(feedURL: URL, externalID: String?, link: URL?, title: String?,
                                datePublished: Date?, content: String?) -> String {
        fnv1a64Hex(key(feedURL: feedURL, externalID: externalID, link: link, title: title,
                       datePublished: datePublished, content: content))
    }

    /// 64-bit FNV-1a of the UTF-8 bytes of `string`, as 16 lowercase hex digits.
    public static func fnv1a64Hex(_ string: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in string.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
