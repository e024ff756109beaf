import Foundation
import QSData

// The Swift samples of the DocC article "Delete rules", compiled against hand-written types for
// the article's podcasts, episodes and hosts. Each region between `sample-begin` and
// `sample-end` must equal one of the article's Swift blocks (DocumentationSampleTests checks).
struct DeleteRulesSamples {
    final class Episode: QSUpdatableObject {
        let uniqueID: Int64
        init(row: QSRow) throws { uniqueID = try row["uniqueID"] }
        func update(from row: QSRow) throws {}
        func encode(to row: inout QSRowEncoder) { row["uniqueID"] = uniqueID }
    }

    /// Its `episodes` cascade.
    final class Podcast: QSUpdatableObject {
        let uniqueID: Int64
        var episodes: [Episode]
        init(row: QSRow) throws { uniqueID = try row["uniqueID"]; episodes = try row.related("episodes") }
        func update(from row: QSRow) throws { episodes = try row.related("episodes") }
        func encode(to row: inout QSRowEncoder) { row["uniqueID"] = uniqueID; row.setRelated("episodes", episodes) }
    }

    /// Its `favorites` deny.
    final class Host: QSUpdatableObject {
        let uniqueID: Int64
        var favorites: [Episode]
        init(row: QSRow) throws { uniqueID = try row["uniqueID"]; favorites = try row.related("favorites") }
        func update(from row: QSRow) throws { favorites = try row.related("favorites") }
        func encode(to row: inout QSRowEncoder) { row["uniqueID"] = uniqueID; row.setRelated("favorites", favorites) }
    }

    @MainActor
    func deletePodcast(_ podcastID: Int64, from store: QSStore) throws {
        // sample-begin
        try store.delete(Podcast.self, ids: [podcastID])  // its episodes go too, unless another podcast lists them
        // sample-end
    }

    @MainActor
    func deleteHost(_ hostID: Int64, from store: QSStore) async throws {
        // sample-begin
        do {
            try await store.delete(Host.self, ids: [hostID]).committed()
        } catch QSDataError.deleteDenied(let type, let relationship) {
            print("\(type) still lists \(relationship)")  // thrown at once: the store holds the host's favorites
        } catch let error as QSWriteError {
            print(error.underlying)  // QSDataError.deleteDenied(type: "Host", relationship: "favorites"), found by the database
        }
        // sample-end
    }
}
