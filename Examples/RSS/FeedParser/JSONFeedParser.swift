import Foundation

/// Reads JSON Feed 1.0 and 1.1 (https://jsonfeed.org) documents, and hands RSS written as JSON
/// to ``RSSInJSONReader``.
///
/// Version differences handled: 1.1 `authors` (array) and 1.0 `author`
/// (object) are both read, `authors` first; an item without authors inherits
/// the feed's. Item `id`s given as numbers are accepted and written as strings.
enum JSONFeedParser {
    typealias Object = [String: Any]

    static func parse(data: Data, feedURL: URL) throws(FeedParserError) -> ParsedFeed {
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: body, options: [])
        } catch {
            throw .malformedJSON(message: String(describing: error))
        }
        guard let object = json as? Object else { throw .malformedJSON(message: "top level is not an object") }
        if object["version"] == nil, let rss = object["rss"] as? Object {
            return RSSInJSONReader.feed(fromRSS: rss, feedURL: feedURL)
        }
        guard let version = object["version"] as? String, version.contains("jsonfeed.org") else {
            throw .unsupportedFormat
        }
        let feedAuthors = authors(in: object, base: feedURL)
        let entries = object["items"] as? [Any] ?? []
        let items = entries.compactMap { $0 as? Object }
        return ParsedFeed(
            format: .jsonFeed,
            title: string(object["title"]).map(HTMLEntityDecoder.decode),
            homePageURL: url(object["home_page_url"], base: feedURL),
            feedURL: url(object["feed_url"], base: feedURL),
            summary: string(object["description"]),
            language: string(object["language"]),
            iconURL: url(object["icon"], base: feedURL) ?? url(object["favicon"], base: feedURL),
            authors: feedAuthors,
            items: items.map { item(from: $0, feedAuthors: feedAuthors, feedURL: feedURL) },
            itemElementCount: entries.count
        )
    }

    private static func item(from object: Object, feedAuthors: [ParsedAuthor], feedURL: URL) -> ParsedItem {
        let externalID = string(object["id"]) ?? (object["id"] as? NSNumber).map { $0.stringValue }
        let title = string(object["title"]).map(HTMLEntityDecoder.decode)
        let link = url(object["url"], base: feedURL)
        let published = string(object["date_published"]).flatMap(DateParser.date(from:))
        let contentHTML = string(object["content_html"])
        let contentText = string(object["content_text"])
        let itemAuthors = authors(in: object, base: feedURL)
        return ParsedItem(
            uniqueID: ArticleIdentifier.uniqueID(feedURL: feedURL, externalID: externalID, link: link, title: title,
                                                 datePublished: published, content: contentHTML ?? contentText),
            externalID: externalID,
            title: title,
            url: link,
            externalURL: url(object["external_url"], base: feedURL),
            contentHTML: contentHTML,
            contentText: contentText,
            summary: string(object["summary"]),
            imageURL: url(object["image"], base: feedURL) ?? url(object["banner_image"], base: feedURL),
            datePublished: published,
            dateModified: string(object["date_modified"]).flatMap(DateParser.date(from:)),
            authors: itemAuthors.isEmpty ? feedAuthors : itemAuthors,
            tags: (object["tags"] as? [Any] ?? []).compactMap { string($0) },
            attachments: (object["attachments"] as? [Any] ?? []).compactMap { attachment($0, base: feedURL) }
        )
    }

    /// 1.1 `authors`, else 1.0 `author`.
    private static func authors(in object: Object, base: URL) -> [ParsedAuthor] {
        let list: [Any] = (object["authors"] as? [Any]) ?? (object["author"].map { [$0] } ?? [])
        return list.compactMap { element in
            guard let fields = element as? Object else { return nil }
            let author = ParsedAuthor(name: string(fields["name"]), url: url(fields["url"], base: base),
                                      avatarURL: url(fields["avatar"], base: base))
            return author.isEmpty ? nil : author
        }
    }

    private static func attachment(_ value: Any, base: URL) -> ParsedAttachment? {
        guard let fields = value as? Object, let location = url(fields["url"], base: base) else { return nil }
        let size = (fields["size_in_bytes"] as? NSNumber)?.intValue
        return ParsedAttachment(url: location, mimeType: string(fields["mime_type"]), title: string(fields["title"]),
                                sizeInBytes: size.flatMap { $0 > 0 ? $0 : nil },
                                durationInSeconds: (fields["duration_in_seconds"] as? NSNumber)?.doubleValue)
    }

    /// A non-empty trimmed string, or `nil`.
    private static func string(_ value: Any?) -> String? {
        (value as? String)?.trimmedNonEmpty
    }

    private static func url(_ value: Any?, base: URL) -> URL? {
        URLResolver.resolve(string(value), against: base)
    }
}
