// Feed is generated from RSS.plist: a subscription. Its uniqueID is the URL it was subscribed
// at, so subscribing twice is impossible; it never changes, because it is part of every
// article's ID. `folder` is the OPML folder it was listed in, `/`-separated, nil when imported
// directly. When the feed moves (a permanent redirect), `address` says where it is read from
// now. `etag` and `lastModified` are the validators of the last download, sent back as
// `If-None-Match` and `If-Modified-Since`. Feeds are few and small: the store fetches them all
// when it opens and keeps them for its whole life, so looking one up never runs SQL.
extension Feed {
    /// The title, or the URL when the feed has none.
    public var displayName: String {
        if let title, !title.isEmpty { return title }
        return uniqueID
    }

    /// The URL the feed is read from now: ``address``, else ``uniqueID``.
    public var currentAddress: String {
        address ?? uniqueID
    }
}
