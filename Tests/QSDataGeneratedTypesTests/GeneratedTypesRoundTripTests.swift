import Foundation
import QSData
import Testing

/// The types the build plugin generated from Library.plist, used through a real store as an
/// app uses hand-written ones: the same results and the same statements.
@MainActor
@Suite struct GeneratedTypesRoundTripTests {
    private let tolkien = Author(uniqueID: "tolkien", born: 1892, name: "J. R. R. Tolkien")
    private let anonymous = Author(uniqueID: "anonymous", name: "Anonymous")

    /// A book with every optional set, and one with none.
    private var books: [Book] {
        [
            Book(
                uniqueID: "hobbit", cover: Data([0x89, 0x50]), details: ["publisher": "Allen & Unwin"],
                keywords: ["dragons", "maps"], pageCount: 310, published: Date(timeIntervalSince1970: -1_000_000_000),
                rating: 4.5, isRead: true, subtitle: "There and Back Again", title: "The Hobbit",
                authors: [tolkien]),
            Book(uniqueID: "beowulf", keywords: [], pageCount: 90, isRead: false, title: "Beowulf", authors: [anonymous]),
        ]
    }

    @Test func everyPropertyTypeSurvivesASaveAndAFetch() async throws {
        let url = LibraryStore.temporaryDatabaseURL()
        let writer = try await LibraryStore.open(at: url)
        try writer.save(books)
        try await writer.close()

        let store = try await LibraryStore.open(at: url)
        let fetched = try await store.fetchAll(Book.self, orderBy: "title DESC")
        #expect(fetched == books)
        #expect(fetched[0].isLong == false)
        #expect(try await store.fetchAll(Author.self, orderBy: "uniqueID") == [anonymous, tolkien])
    }

    @Test func fetchingShelvesWithTheirChildrenTakesAConstantNumberOfStatements() async throws {
        let url = LibraryStore.temporaryDatabaseURL()
        let writer = try await LibraryStore.open(at: url)
        var shelves: [Shelf] = []
        for index in 1...50 {
            let shelf = Shelf(uniqueID: Int64(index), name: "Shelf \(index)")
            shelf.books = books
            shelf.stickers = [Sticker(uniqueID: "star-\(index)", motif: index.isMultiple(of: 2) ? "star" : nil)]
            shelves.append(shelf)
        }
        try writer.save(shelves)
        try await writer.close()

        let store = try await LibraryStore.open(at: url)
        var fetched: [Shelf] = []
        let log = try await store.recordStatements {
            fetched = try await store.fetchAll(Shelf.self, orderBy: "uniqueID")
        }
        // Shelves; books' lookup and books; authors' lookup and authors; stickers' lookup and stickers.
        #expect(log.count == 7, "\(log)")
        #expect(fetched.count == 50)
        #expect(fetched[9].name == "Shelf 10")
        #expect(fetched[9].bookTitles == ["The Hobbit", "Beowulf"])
        #expect(fetched[9].books[0].authors == [tolkien])
        #expect(fetched[9].stickers == [Sticker(uniqueID: "star-10", motif: "star")])
        #expect(fetched[10].stickers[0].motif == nil)
        #expect(awakenedShelves.withLock { $0[10] } == 1)
    }

    @Test func aUniquedGeneratedClassIsOneInstanceAndIsPatchedByBulkUpdates() async throws {
        let store = try await LibraryStore.open()
        let shelf = Shelf(uniqueID: 7, name: "Poetry")
        shelf.note = "by the window"
        try store.save(shelf)
        let fetched = try await store.fetch(Shelf.self, id: 7)
        #expect(fetched === shelf)

        let log = try await store.recordStatements {
            try store.update(Shelf.self, ids: [7], set: ["title": "Verse", "note": SQLValue.null])
            try await store.flush()
        }
        #expect(log.count == 1, "\(log)")
        #expect(shelf.name == "Verse")
        #expect(shelf.note == nil)
        // Set column by column (`title` into `name`), which is no change of the app's.
        #expect(shelf.changedProperties.isEmpty)
        #expect(try await store.fetch(ShelfSummary.self, id: 7)?.title == "Verse")
    }

    @Test func aGeneratedTypeRunsTheSameStatementsAsTheSameTypeWrittenByHand() async throws {
        let generated = try await statements(saving: books, ids: books.map(\.uniqueID))
        let handWritten = try await statements(saving: books.map(BookRecord.init), ids: books.map(\.uniqueID))
        #expect(generated.map(\.statements) == handWritten.map(\.statements))
        // The fetch: books, authors' lookup, authors. The bulk update: one statement.
        #expect(generated[1].count == 3, "\(generated[1])")
        #expect(generated[2].count == 1, "\(generated[2])")
        #expect(generated[3].statements.first?.hasPrefix("DELETE FROM \"books\"") == true, "\(generated[3])")
    }

    /// The statements that saving, fetching, bulk-updating and deleting `objects` run, in a fresh store.
    private func statements<Object: QSDataObject>(saving objects: [Object], ids: [Object.UniqueID]) async throws -> [QSStatementLog] {
        let store = try await LibraryStore.open()
        let save = try await store.recordStatements {
            try store.save(objects)
            try await store.flush()
        }
        let fetch = try await store.recordStatements { _ = try await store.fetch(Object.self, ids: ids) }
        let update = try await store.recordStatements {
            try store.update(Object.self, ids: ids, set: ["read": true])
            try await store.flush()
        }
        let delete = try await store.recordStatements {
            try store.delete(Object.self, ids: ids)
            try await store.flush()
        }
        try await store.close()
        return [save, fetch, update, delete]
    }

    @Test func aShelfChangedInAnExtensionMethodSavesItsNewBook() async throws {
        let store = try await LibraryStore.open()
        let shelf = Shelf(uniqueID: 3, createdAt: LibraryStore.date, position: 1.5, name: "Fiction", books: books)
        try store.save(shelf)
        shelf.add(Book(uniqueID: "edda", keywords: ["myth"], pageCount: 200, isRead: false, title: "Edda"))
        try store.save(shelf)
        let fetched = try await store.fetch(Book.self, where: "uniqueID = ?", arguments: ["edda"])
        #expect(fetched.map(\.title) == ["Edda"])
        let summaries = try await store.fetchAll(ShelfSummary.self)
        #expect(summaries.map(\.title) == ["Fiction"])
    }

    @Test func aPermanentlyCachedGeneratedClassIsServedWithoutSQL() async throws {
        let url = LibraryStore.temporaryDatabaseURL()
        let writer = try await LibraryStore.open(at: url)
        try writer.save([Label(uniqueID: "new", color: "green", name: "New"), Label(uniqueID: "old", name: "Old")])
        try await writer.close()

        let store = try await LibraryStore.open(at: url)
        var label: Label?
        let log = try await store.recordStatements {
            label = try await store.fetch(Label.self, id: "new")
        }
        #expect(log.count == 0, "\(log)")
        #expect(label?.description == "New (green)")
    }

    @Test func anImmutableGeneratedClassIsSendable() async throws {
        let store = try await LibraryStore.open()
        try store.save(Stamp(uniqueID: 1, code: "PB-1", issued: LibraryStore.date))
        let stamp = try #require(try await store.fetch(Stamp.self, id: 1))
        let code = await Task.detached { stamp.code }.value
        #expect(code == "PB-1")
        requireSendable(Book.self)
        requireSendable(Author.self)
    }

    private func requireSendable<T: Sendable>(_: T.Type) {}
}
