import Foundation
import QSData
import Testing

/// Conditions, orderings and bulk updates built from the generated `columns`: the compiler checks
/// names and value types, values are bound, and each runs exactly the statements of its string form.
@MainActor
@Suite struct TypedQueryTests {
    private let books = [
        Book(uniqueID: "hobbit", keywords: [], pageCount: 310, rating: 4.5, isRead: true, title: "The Hobbit"),
        Book(uniqueID: "beowulf", keywords: [], pageCount: 90, isRead: false, title: "Beowulf"),
        Book(uniqueID: "dune", keywords: [], pageCount: 412, rating: 4.2, isRead: false, subtitle: "Book one", title: "Dune"),
        Book(uniqueID: "emma", keywords: [], pageCount: 474, isRead: false, title: "Emma"),
    ]

    private func openStore() async throws -> QSStore {
        let store = try await LibraryStore.open(at: LibraryStore.temporaryDatabaseURL())
        try store.save(books)
        try await store.flush()
        return store
    }

    private func titles(_ books: [Book]) -> [String] { books.map(\.title) }

    @Test func aTypedFetchRunsTheStatementsOfItsStringForm() async throws {
        let store = try await openStore()
        var typed: [Book] = []
        let typedLog = try await store.recordStatements {
            typed = try await store.fetch(
                Book.self, where: Book.columns.pageCount > 100 && Book.columns.isRead == false,
                orderBy: [Book.columns.pageCount.descending, Book.columns.title.ascending], limit: 10)
        }
        var written: [Book] = []
        let writtenLog = try await store.recordStatements {
            written = try await store.fetch(
                Book.self, where: #""pageCount" > ? AND "read" = ?"#, arguments: [100, false],
                orderBy: #""pageCount" DESC, "title" ASC"#, limit: 10)
        }
        #expect(titles(typed) == ["Emma", "Dune"])
        #expect(typed == written)
        #expect(typedLog.statements == writtenLog.statements)
        #expect(typedLog.count == writtenLog.count)
    }

    @Test func conditionsReadAsAPersonWouldWriteThem() {
        let condition = Book.columns.isRead == false && (Book.columns.pageCount > 400 || Book.columns.rating >= 4.5)
        #expect(condition.sql == #""read" = ? AND ("pageCount" > ? OR "rating" >= ?)"#)
        #expect(condition.arguments == [.integer(0), .integer(400), .real(4.5)])
        let chained = Book.columns.isRead == true && Book.columns.pageCount < 100 && Book.columns.title != "X"
        #expect(chained.sql == #""read" = ? AND "pageCount" < ? AND "title" <> ?"#)
        let negated = !(Book.columns.subtitle == nil) || Book.columns.uniqueID.in(["a", "b"])
        #expect(negated.sql == #"NOT ("subtitle" IS NULL) OR "uniqueID" IN (?, ?)"#)
        #expect(negated.arguments == [.text("a"), .text("b")])
        let mixed = QSCondition<Book>(sql: "length(title) > ? OR 0", arguments: [3]) && Book.columns.subtitle != nil
        #expect(mixed.sql == #"(length(title) > ? OR 0) AND "subtitle" IS NOT NULL"#)
        let dated = Book.columns.published < Date(timeIntervalSince1970: 100)
        #expect(dated.arguments == [.real(100)], "a date is bound as it is stored")
    }

    @Test func everyKindOfConditionSelectsTheRightRows() async throws {
        let store = try await openStore()
        #expect(titles(try await store.fetch(Book.self, where: Book.columns.rating == nil)).sorted() == ["Beowulf", "Emma"])
        #expect(titles(try await store.fetch(Book.self, where: Book.columns.rating != nil, orderBy: [Book.columns.rating.ascending]))
            == ["Dune", "The Hobbit"])
        #expect(titles(try await store.fetch(Book.self, where: Book.columns.uniqueID.in(["dune", "emma", "nowhere"]),
                                             orderBy: [Book.columns.title.ascending])) == ["Dune", "Emma"])
        #expect(try await store.fetch(Book.self, where: Book.columns.uniqueID.in([String]())).isEmpty)
        #expect(titles(try await store.fetch(Book.self, where: Book.columns.title.like("%e%"), orderBy: [Book.columns.title.ascending]))
            == ["Beowulf", "Dune", "Emma", "The Hobbit"])
        #expect(titles(try await store.fetch(Book.self, where: Book.columns.subtitle.like("Book%"))) == ["Dune"])
        #expect(try await store.count(Book.self, where: !(Book.columns.isRead == true)) == 3)
        #expect(try await store.fetchIDs(Book.self, where: Book.columns.pageCount >= 412, orderBy: [Book.columns.pageCount.ascending])
            == ["dune", "emma"])
        #expect(titles(try await store.fetchAll(Book.self, orderBy: [Book.columns.pageCount.ascending])).first == "Beowulf")
    }

    @Test func bulkUpdatesAndDeletesTakeTypedColumns() async throws {
        let store = try await openStore()
        let typedLog = try await store.recordStatements {
            try store.update(Book.self, ids: ["dune", "emma"], set: Book.columns.isRead.to(true), Book.columns.rating.to(nil))
        }
        let writtenLog = try await store.recordStatements {
            try store.update(Book.self, ids: ["dune", "emma"], set: ["read": true, "rating": SQLValue.null])
        }
        #expect(typedLog.statements == writtenLog.statements)
        #expect(typedLog.count == 1)
        #expect(try await store.count(Book.self, where: Book.columns.isRead == true) == 3)

        try store.update(Book.self, where: Book.columns.pageCount < 100, set: Book.columns.title.to("Beowulf (verse)"))
        #expect(try await store.fetch(Book.self, id: "beowulf")?.title == "Beowulf (verse)")

        let deletion = try await store.recordStatements {
            try store.delete(Book.self, where: Book.columns.isRead == true && Book.columns.pageCount > 400)
        }
        #expect(deletion.statements.contains { $0.contains(#"WHERE "read" = ? AND "pageCount" > ?"#) })
        #expect(try await store.fetchIDs(Book.self, where: Book.columns.pageCount > 0, orderBy: [Book.columns.uniqueID.ascending])
            == ["beowulf", "hobbit"])
    }

    @Test func aLiveQueryTakesATypedCondition() async throws {
        let store = try await openStore()
        let query = try QSQuery(Book.self, where: Book.columns.isRead == false, orderBy: [Book.columns.title.ascending])
        #expect(query.condition == #""read" = ?"#)
        #expect(query.orderBy == #""title" ASC"#)
        let live = try await store.liveQuery(query)
        #expect(titles(live.objects) == ["Beowulf", "Dune", "Emma"])
        try store.update(Book.self, ids: ["dune"], set: Book.columns.isRead.to(true))
        try await live.waitUntilCurrent()
        #expect(titles(live.objects) == ["Beowulf", "Emma"])
        live.cancel()
    }
}
