import FeedParser

// ArticleContent is generated from RSS.plist: what a feed says about an article, the columns of
// `articles` the importer owns. The importer saves this type, never Article: it has no `read` or
// `starred` column, so a new row gets the schema's defaults and re-importing an article never
// touches the user's state. Saving an unchanged article writes nothing (the store compares
// before updating). Article, also generated, is the full article for reading, with the user's
// read and starred state.
extension ArticleContent {
    /// The article as `item` describes it, in the feed `feedID`.
    public init(item: ParsedItem, feedID: String) {
        self.init(
            uniqueID: item.uniqueID,
            contentHTML: item.contentHTML ?? item.contentText,
            dateModified: item.dateModified,
            datePublished: item.datePublished,
            externalURL: item.externalURL?.absoluteString,
            feedID: feedID,
            imageURL: item.imageURL?.absoluteString,
            summary: item.summary,
            title: item.title,
            url: item.url?.absoluteString,
            authors: item.authors.compactMap(Author.init(parsed:)))
    }
}
