// Feed is generated from RSS.plist: a subscription. Its uniqueID is the URL it is read from, so
// subscribing twice is impossible; `folder` is the OPML folder it was listed in, `/`-separated,
// nil when imported directly. Feeds are few and small: the store fetches them all when it opens
// and keeps them for its whole life, so looking one up never runs SQL.
extension Feed {
    /// The title, or the URL when the feed has none.
    public var displayName: String {
        if let title, !title.isEmpty { return title }
        return uniqueID
    }
}
