import Foundation
import QSData

extension RSSDataController {
    /// Deletes the articles of `feedID` that `retention` lets go: read, unstarred, published
    /// before its cutoff, and not among `current` (the IDs the feed's latest document lists).
    /// Returns how many were deleted.
    @discardableResult
    public func pruneArticles(ofFeed feedID: String, keeping current: Set<String>, retention: ArticleRetention,
                              now: Date) async throws -> Int {
        // The candidates are few (old and read); the document's IDs are compared here rather than
        // in SQL, so no statement carries a list as long as the feed.
        let candidates = try await store.fetchIDs(
            Article.self, where: "feedID = ? AND read = 1 AND starred = 0 AND datePublished < ?",
            arguments: [.text(feedID), .real(retention.cutoff(now: now).timeIntervalSince1970)])
        let leaving = candidates.filter { !current.contains($0) }
        guard !leaving.isEmpty else { return 0 }
        try await store.delete(Article.self, ids: leaving).committed()
        return leaving.count
    }
}
