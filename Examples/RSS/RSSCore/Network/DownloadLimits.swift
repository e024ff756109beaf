/// How widely the reader downloads: how many documents at once in all, and from any one host.
///
/// `rss import` and `rss refresh` share it, so that importing a long subscription list is as
/// fast, and as polite to each server, as refreshing it.
public struct DownloadLimits: Sendable, Equatable {
    /// Documents read at once, in all.
    public var total: Int
    /// Downloads at once from any one host. Local files have no host and only count in ``total``.
    public var perHost: Int

    /// Limits of at least one each.
    public init(total: Int, perHost: Int) {
        self.total = max(1, total)
        self.perHost = max(1, perHost)
    }

    /// Sixteen at once, two from any one host: downloads mostly wait on the network, and a
    /// subscription list names many hosts.
    public static let standard = DownloadLimits(total: 16, perHost: 2)
}
