import Foundation
import QSData
import Testing

/// The fixture's EpisodeSummary, read in an order that depends on the row: played episodes
/// read `played` first and `title` last, the others read `title` twice and `played` twice.
private struct EpisodeReadInChangingOrder: QSDataObject, Equatable {
    static let modelName = "EpisodeSummary"
    let uniqueID: String
    let title: String
    let played: Bool
    let titleReadTwice: Bool
    let playedReadAgain: Bool?

    init(uniqueID: String, title: String, played: Bool, titleReadTwice: Bool, playedReadAgain: Bool?) {
        self.uniqueID = uniqueID
        self.title = title
        self.played = played
        self.titleReadTwice = titleReadTwice
        self.playedReadAgain = playedReadAgain
    }

    init(row: QSRow) throws {
        let played: Bool = try row["played"]
        if played {
            uniqueID = try row["uniqueID"]
            title = try row["title"]
            titleReadTwice = false
            playedReadAgain = nil
        } else {
            title = try row["title"]
            uniqueID = try row["uniqueID"]
            let again: String = try row["title"]
            titleReadTwice = again == title
            let playedAgain: Bool = try row["played"]
            playedReadAgain = playedAgain
        }
        self.played = played
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["played"] = played
    }
}

/// A row learns the order in which a type reads its columns from the first row and follows it
/// after that; a type that reads in another order, or reads a column twice, still gets each
/// column's own value.
@MainActor
@Suite struct RowReadingTests {
    @Test func columnsReadInAnOrderThatChangesFromRowToRowGetTheirOwnValues() async throws {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: PodcastFixtures.model(.init()),
            schema: QSSchema(creationSQL: PodcastFixtures.schemaSQL),
            types: [Podcast.self, Episode.self, EpisodeReadInChangingOrder.self, Host.self])
        try await store.execute("""
            INSERT INTO episodes (uniqueID, title, played, audioURL) VALUES
                ('a', 'Unplayed A', 0, 'u'), ('b', 'Played B', 1, 'u'), ('c', 'Played C', 1, 'u'), ('d', 'Unplayed D', 0, 'u')
            """)
        let episodes = try await store.fetchAll(EpisodeReadInChangingOrder.self, orderBy: "uniqueID")
        #expect(episodes == [
            EpisodeReadInChangingOrder(uniqueID: "a", title: "Unplayed A", played: false, titleReadTwice: true, playedReadAgain: false),
            EpisodeReadInChangingOrder(uniqueID: "b", title: "Played B", played: true, titleReadTwice: false, playedReadAgain: nil),
            EpisodeReadInChangingOrder(uniqueID: "c", title: "Played C", played: true, titleReadTwice: false, playedReadAgain: nil),
            EpisodeReadInChangingOrder(uniqueID: "d", title: "Unplayed D", played: false, titleReadTwice: true, playedReadAgain: false),
        ])
    }
}
