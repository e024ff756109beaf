import Foundation
import QSData

// The Swift samples of the DocC article "Delete rules", compiled against the types the build
// plugin generates from DeleteRules.plist, which holds every relationship the article shows.
// Each region between `sample-begin` and `sample-end` must equal one of the article's Swift
// blocks (DocumentationSampleTests checks).
struct DeleteRulesSamples {
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
