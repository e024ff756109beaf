import Foundation
import QSData
import RSSCore
import Testing

/// `rss import --no-fetch` says how many feeds were new and how many were subscribed already.
@MainActor
@Suite struct NoFetchTests {
    @Test func subscribingTheSameFeedsAgainSaysNoneAreNewAndAllAreAlreadySubscribed() async throws {
        try await TestSupport.withData { data, folder in
            try await data.close()
            let database = folder.appendingPathComponent("rss.sqlite")
            // Never downloaded: nothing listens at these addresses.
            let urls = (1...3).map { "http://127.0.0.1:9/feed\($0).xml" }

            let first = await TestSupport.rss(["import", "--no-fetch"] + urls, database: database)
            #expect(first.status == 0, "\(first.error)")
            #expect(first.output.contains("Imported 0 feeds in "))
            #expect(first.output.contains(" s: subscribed to 3 new feeds without fetching; 0 new, 0 updated, 0 unchanged articles; 0 skipped"))

            let again = await TestSupport.rss(["import", "--no-fetch"] + urls, database: database)
            #expect(again.status == 0, "\(again.error)")
            #expect(again.output.contains(" s: subscribed to 0 new feeds without fetching (3 already subscribed); 0 new, 0 updated, 0 unchanged articles; 0 skipped"))
        }
    }

    @Test func theNewAddressOfAMovedFeedCountsAsAlreadySubscribed() async throws {
        try await TestSupport.withData { data, folder in
            let feed = Feed(uniqueID: "http://127.0.0.1:9/old.xml")
            feed.address = "http://127.0.0.1:9/new.xml"
            try data.store.save(feed)
            try data.store.save(FeedAddress(uniqueID: "http://127.0.0.1:9/new.xml", feedID: feed.uniqueID))
            try await data.close()

            let run = await TestSupport.rss(["import", "--no-fetch", "http://127.0.0.1:9/new.xml"],
                                            database: folder.appendingPathComponent("rss.sqlite"))
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains(" s: subscribed to 0 new feeds without fetching (1 already subscribed); "))
        }
    }
}
