import Foundation
import QSData
import Testing

/// Full-text search: declared in the model, checked at open, ranked by bm25, safe for any text,
/// and kept right by every kind of write.
@MainActor
@Suite struct SearchTests {
    private func checkIndex(_ store: QSStore, _ table: String = "notesSearch") async throws {
        // FTS5 compares the index with the content table and fails on any difference.
        try await store.execute("INSERT INTO \(table)(\(table), rank) VALUES ('integrity-check', 1)")
    }

    private func ids(_ results: [QSSearchResult<Note>]) -> [Int64] { results.map(\.object.uniqueID) }

    // MARK: Ranking and snippets

    @Test func resultsComeBestMatchFirst() async throws {
        let store = try await SearchFixtures.openNotesStore()
        try store.save([
            Note(uniqueID: 1, text: "a long note that mentions swift once among many other ordinary words"),
            Note(uniqueID: 2, text: "swift swift swift"),
            Note(uniqueID: 3, text: "nothing to see here"),
            Note(uniqueID: 4, text: "swift notes"),
        ])
        let results = try await store.search(Note.self, for: "swift")
        #expect(ids(results) == [2, 4, 1])
        #expect(results.map(\.score) == results.map(\.score).sorted())
        #expect(results.allSatisfy { $0.snippet == nil })
    }

    @Test func everyWordMustOccurAndTheLastMatchesPrefixes() async throws {
        let store = try await SearchFixtures.openNotesStore()
        try store.save([Note(uniqueID: 1, text: "swift concurrency"), Note(uniqueID: 2, text: "swift generics"),
                        Note(uniqueID: 3, text: "concurrent rust")])
        #expect(ids(try await store.search(Note.self, for: "swift conc")) == [1])
        #expect(ids(try await store.search(Note.self, for: "swift conc", matchingPrefixes: false)) == [])
        #expect(ids(try await store.search(Note.self, for: "CONCURRENCY")) == [1])
    }

    @Test func snippetsMarkTheMatchedWords() async throws {
        let store = try await SearchFixtures.openNotesStore()
        try store.save(Note(uniqueID: 1, text: "The quick brown fox jumps over the lazy dog"))
        let results = try await store.search(Note.self, for: "fox", snippet: QSSnippetStyle())
        #expect(results.map(\.snippet) == ["The quick brown [fox] jumps over the lazy dog"])
        let short = try await store.search(Note.self, for: "lazy", snippet: QSSnippetStyle(before: "<b>", after: "</b>", maxTokens: 3))
        #expect(short.map(\.snippet) == ["…the <b>lazy</b> dog"])
    }

    @Test func aConditionNarrowsTheResults() async throws {
        let store = try await SearchFixtures.openNotesStore()
        try store.save([Note(uniqueID: 1, text: "meeting notes"), Note(uniqueID: 2, text: "meeting agenda", archived: true)])
        let visible = try await store.search(Note.self, for: "meeting", where: "archived = ?", arguments: [false])
        #expect(ids(visible) == [1])
        // The condition reads the type's table: `text` is its column, not the index's.
        let byText = try await store.search(Note.self, for: "meeting", where: "text LIKE ?", arguments: ["%agenda%"])
        #expect(ids(byText) == [2])
        #expect(ids(try await store.search(Note.self, for: "meeting", limit: 1)).count == 1)
    }

    @Test func searchReturnsTheSameInstancesAndCostsOneStatementWhenTheyAreInMemory() async throws {
        let store = try await SearchFixtures.openNotesStore()
        let note = Note(uniqueID: 1, text: "uniqued search")
        try store.save(note)
        var results: [QSSearchResult<Note>] = []
        let log = try await store.recordStatements { results = try await store.search(Note.self, for: "uniqued") }
        #expect(log.count == 1, "\(log)")
        #expect(results.first?.object === note)
    }

    @Test func objectsNotInMemoryAreFetchedWithTheirRelationships() async throws {
        let store = try await SearchFixtures.openNotesStore()
        try store.save(Note(uniqueID: 1, text: "tagged search", tags: [Tag(name: "Work")]))
        try await store.flush()
        // A fresh store: nothing in memory but the permanently cached tags.
        let reopened = try await QSStore.open(
            at: store.url, model: SearchFixtures.notesModel(),
            schema: QSSchema(creationSQL: Fixtures.schemaSQL + SearchFixtures.notesSearchSQL), types: Fixtures.allTypes)
        var results: [QSSearchResult<Note>] = []
        let log = try await reopened.recordStatements { results = try await reopened.search(Note.self, for: "tagged") }
        // What a fetch costs: the tags' lookup rows, the attachments', then the ranked notes
        // with their scores; no separate statement to rank.
        #expect(log.count == 3, "\(log)")
        #expect(results.first?.object.tags.map(\.name) == ["Work"])
    }

    @Test func aTypeWithoutRelationshipsRanksAndReadsItsRowsInOneStatement() async throws {
        let store = try await SearchFixtures.openPostsStore()
        try store.save([Post(uniqueID: "a", title: "Garden", body: "plant plant plant the seeds"),
                        Post(uniqueID: "b", title: "Kitchen", body: "a plant on the sill"),
                        Post(uniqueID: "c", title: "Plant care", body: "water weekly"),
                        Post(uniqueID: "d", title: "Nothing", body: "to see")])
        var results: [QSSearchResult<Post>] = []
        let log = try await store.recordStatements {
            results = try await store.search(Post.self, for: "plant", where: "title != ?", arguments: ["Kitchen"],
                                             limit: 5, snippet: QSSnippetStyle(column: "body", maxTokens: 3))
        }
        #expect(log.count == 1, "\(log)")
        #expect(results.map(\.object.uniqueID) == ["a", "c"])
        #expect(results.map(\.object) == [Post(uniqueID: "a", title: "Garden", body: "plant plant plant the seeds"),
                                           Post(uniqueID: "c", title: "Plant care", body: "water weekly")])
        #expect(results[0].score < results[1].score)
        #expect(results.map(\.snippet) == ["[plant] [plant] [plant]…", "water weekly"])
    }

    @Test func notesNotInMemoryComeRankedWithTheirScoresAndSnippets() async throws {
        let store = try await SearchFixtures.openNotesStore()
        try store.save([Note(uniqueID: 1, text: "one swift note"), Note(uniqueID: 2, text: "swift swift swift"),
                        Note(uniqueID: 3, text: "swift but archived", archived: true)])
        let held = try await store.search(Note.self, for: "swift", where: "archived = ?", arguments: [false], snippet: QSSnippetStyle())
        try await store.flush()
        let reopened = try await QSStore.open(
            at: store.url, model: SearchFixtures.notesModel(),
            schema: QSSchema(creationSQL: Fixtures.schemaSQL + SearchFixtures.notesSearchSQL), types: Fixtures.allTypes)
        let read = try await reopened.search(Note.self, for: "swift", where: "archived = ?", arguments: [false], snippet: QSSnippetStyle())
        #expect(ids(read) == [2, 1])
        #expect(read.map(\.score) == held.map(\.score))
        #expect(read.map(\.snippet) == ["[swift] [swift] [swift]", "one [swift] note"])
        #expect(read.map(\.snippet) == held.map(\.snippet))
        // Searching again finds the same instances, now held.
        let again = try await reopened.search(Note.self, for: "swift", where: "archived = ?", arguments: [false])
        #expect(zip(again, read).allSatisfy { $0.object === $1.object })
    }

    @Test func stringUniqueIDsAreFoundThroughTheTablesRowid() async throws {
        let store = try await SearchFixtures.openPostsStore()
        try store.save([Post(uniqueID: "b", title: "Release notes", body: "fixes"),
                        Post(uniqueID: "a", title: "Roadmap", body: "release planning")])
        let results = try await store.search(Post.self, for: "release", snippet: QSSnippetStyle(column: "body"))
        #expect(Set(results.map(\.object.uniqueID)) == ["a", "b"])
        #expect(results.first { $0.object.uniqueID == "a" }?.snippet == "[release] planning")
        try await checkIndex(store, "postsSearch")
    }

    // MARK: Any text is safe

    @Test func anyTypedTextSearchesWithoutSQLErrors() async throws {
        let store = try await SearchFixtures.openNotesStore()
        try store.save([Note(uniqueID: 1, text: "don't panic (really) AND relax: \"quoted\" NEAR here"),
                        Note(uniqueID: 2, text: "c++ and c# and f*")])
        let hostile = ["\"", "\"\"", "(", ")", "((", "a AND (", "NEAR(", "NEAR", "AND", "OR NOT", "text:panic",
                       "*", "^panic", "-panic", "+", "\"unbalanced", "'", "'; DROP TABLE notes; --", "panic\u{0}relax",
                       "🙂", "", "   ", "\n\t", "c++", "f*", "{text}: x", "col:", "x OR", ":"]
        for text in hostile {
            _ = try await store.search(Note.self, for: text)
        }
        #expect(ids(try await store.search(Note.self, for: "don't")) == [1])
        #expect(ids(try await store.search(Note.self, for: "(really")) == [1])
        #expect(ids(try await store.search(Note.self, for: "NEAR here")) == [1])
        #expect(ids(try await store.search(Note.self, for: "\"quoted")) == [1])
        #expect(ids(try await store.search(Note.self, for: "panic\u{0}relax")) == [1])
        #expect(try await store.count(Note.self) == 2)
    }

    @Test func wordsEndAtAnyWhitespaceOrControlCharacterAndKeepTheirQuotes() async throws {
        let store = try await SearchFixtures.openNotesStore()
        try store.save([Note(uniqueID: 1, text: "naïve café, said \"Zoë\""), Note(uniqueID: 2, text: "naïve tea")])
        #expect(ids(try await store.search(Note.self, for: "café\u{2003}naïve")) == [1])
        #expect(ids(try await store.search(Note.self, for: "café\u{85}naïve")) == [1])
        #expect(ids(try await store.search(Note.self, for: "naïve\u{7F}zo")) == [1])
        #expect(ids(try await store.search(Note.self, for: "\"zoë\"")) == [1])
        #expect(ids(try await store.search(Note.self, for: "naïvecafé")) == [])
        #expect(SQLValue.text("it's \"Zoë\"").description == "'it''s \"Zoë\"'")
    }

    @Test func textWithNoWordsRunsNoSQL() async throws {
        let store = try await SearchFixtures.openNotesStore()
        var results: [QSSearchResult<Note>] = [QSSearchResult]()
        let log = try await store.recordStatements { results = try await store.search(Note.self, for: " \" ( ) * ") }
        #expect(results.isEmpty)
        #expect(log.count == 0)
    }

    @Test func aTypeWithoutASearchIndexCantBeSearched() async throws {
        let store = try await SearchFixtures.openNotesStore()
        await #expect(throws: QSDataError.notSearchable(type: "Tag")) {
            _ = try await store.search(Tag.self, for: "x")
        }
    }

    @Test func anUnknownSnippetColumnIsAClearError() async throws {
        let store = try await SearchFixtures.openNotesStore()
        await #expect(throws: QSDataError.unknownColumn(type: "notesSearch", column: "title")) {
            _ = try await store.search(Note.self, for: "x", snippet: QSSnippetStyle(column: "title"))
        }
    }

    // MARK: The index stays right

    @Test func bulkUpdatesAndDeletesKeepTheIndexRight() async throws {
        let store = try await SearchFixtures.openNotesStore()
        try store.save((1...6).map { Note(uniqueID: Int64($0), text: "alpha \($0)") })
        try store.update(Note.self, ids: [1, 2], set: ["text": "beta"])
        try store.update(Note.self, where: "uniqueID = ?", arguments: [.integer(3)], set: ["text": "gamma"])
        try store.update(Note.self, ids: [4], set: ["archived": true])  // a column the index lacks
        try store.delete(Note.self, ids: [5])
        try store.delete(Note.self, where: "uniqueID = ?", arguments: [.integer(2)])
        try await store.flush()
        #expect(ids(try await store.search(Note.self, for: "alpha")).sorted() == [4, 6])
        #expect(ids(try await store.search(Note.self, for: "beta")) == [1])
        #expect(ids(try await store.search(Note.self, for: "gamma")) == [3])
        try await checkIndex(store)
    }

    @Test func savingChangedTextKeepsTheIndexRight() async throws {
        let store = try await SearchFixtures.openNotesStore()
        let note = Note(uniqueID: 1, text: "first draft")
        try store.save(note)
        note.text = "final version"
        try store.save(note)
        #expect(ids(try await store.search(Note.self, for: "draft")) == [])
        #expect(ids(try await store.search(Note.self, for: "final")) == [1])
        try await checkIndex(store)
    }

    @Test func theTriggersAddNoStatementsToABulkDelete() async throws {
        let store = try await SearchFixtures.openNotesStore()
        let notes = (1...1_000).map { Note(uniqueID: Int64($0), text: "note \($0)", tags: [Tag(name: "t")]) }
        try store.save(notes)
        let log = try await store.recordStatements { try store.delete(notes) }
        #expect(log.count == 3, "\(log)")
        #expect(try await store.search(Note.self, for: "note").isEmpty)
        try await checkIndex(store)
    }

    @Test func rebuildingTheIndexFillsItFromTheTable() async throws {
        let store = try await SearchFixtures.openNotesStore()
        try store.save(Note(uniqueID: 1, text: "before the index"))
        try await store.flush()
        try await store.execute("INSERT INTO notesSearch(notesSearch) VALUES ('delete-all')")
        #expect(try await store.search(Note.self, for: "index").isEmpty)
        try await store.rebuildSearchIndex(of: Note.self)
        #expect(ids(try await store.search(Note.self, for: "index")) == [1])
    }

    // MARK: Declaring and checking the index

    @Test func theModelDeclaresTheIndex() throws {
        let model = try SearchFixtures.notesModel()
        #expect(model["Note"]?.search == QSSearchDescription(table: "notesSearch", columns: ["text"]))
        #expect(model["Tag"]?.search == nil)
    }

    /// A `search` dictionary for the plist: a table (when given), columns, and perhaps a key too many.
    struct Declaration: Sendable {
        var table: String? = "s"
        var columns: [String]
        var extraKey = false

        var plist: [String: Any] {
            var search: [String: Any] = ["columns": columns]
            if let table { search["table"] = table }
            if extraKey { search["weights"] = [1] }
            return search
        }
    }

    @Test(arguments: [
        (Declaration(columns: ["archived"]), "search.columns", "'archived' is boolean; only string properties can be searched"),
        (Declaration(columns: []), "search.columns", "must be a non-empty array of property names"),
        (Declaration(columns: ["text", "text"]), "search.columns", "lists a property twice"),
        (Declaration(table: nil, columns: ["text"]), "search.table", "missing"),
        (Declaration(columns: ["text"], extraKey: true), "search.weights", "unknown key"),
    ])
    func aWrongDeclarationNamesTheKey(declaration: Declaration, key: String, problem: String) throws {
        #expect(throws: QSDataError.invalidModel(file: "SearchableNotes.plist", type: "Note", key: key, problem: problem)) {
            _ = try SearchFixtures.notesModel(search: declaration.plist)
        }
    }

    @Test(arguments: [
        ("", "Note.search: table 'notesSearch' does not exist"),
        ("CREATE TABLE notesSearch (text TEXT);", "Note.search: 'notesSearch' is not an FTS5 virtual table (CREATE VIRTUAL TABLE … USING fts5(…))"),
        (SearchFixtures.notesSearchSQL.replacingOccurrences(of: "fts5(text,", with: "fts5(text, title,"),
         "Note.search: 'notesSearch' has columns (text, title); the model declares (text)"),
        (SearchFixtures.notesSearchSQL.replacingOccurrences(of: "fts5(text,", with: "fts5(title,"),
         "Note.search: 'notesSearch' has columns (title); the model declares (text)"),
        (SearchFixtures.notesSearchSQL.replacingOccurrences(of: "content='notes'", with: "content='tags'"),
         "Note.search: 'notesSearch' indexes content='tags', not the type's table 'notes'"),
        (SearchFixtures.notesSearchSQL.replacingOccurrences(of: "content_rowid='uniqueID'", with: "content_rowid='sortDate'"),
         "Note.search: content_rowid='sortDate' must be the rowid or the INTEGER PRIMARY KEY of 'notes'"),
        (SearchFixtures.notesSearchSQL.replacingOccurrences(of: "AFTER DELETE ON notes", with: "AFTER DELETE ON tags"),
         "Note.search: no trigger on 'notes' writes 'notesSearch' when rows are deleted"),
        (SearchFixtures.notesSearchSQL.replacingOccurrences(of: "AFTER INSERT ON notes", with: "AFTER INSERT ON tags"),
         "Note.search: no trigger on 'notes' writes 'notesSearch' when rows are inserted"),
        (SearchFixtures.notesSearchSQL.replacingOccurrences(of: "UPDATE OF text ON notes", with: "UPDATE OF archived ON notes"),
         "Note.search: no update trigger on 'notes' fires when 'text' changes"),
    ])
    func aSchemaThatDoesNotMatchTheDeclarationIsRefusedAtOpen(searchSQL: String, problem: String) async throws {
        await #expect(throws: QSDataError.schemaMismatch([problem])) {
            _ = try await SearchFixtures.openNotesStore(searchSQL: searchSQL)
        }
    }

    @Test func anIndexedColumnMustBeAColumnOfTheTable() async throws {
        let model = try SearchFixtures.notesModel(search: ["table": "notesSearch", "columns": ["text", "title"]])
        let sql = SearchFixtures.notesSearchSQL.replacingOccurrences(of: "fts5(text,", with: "fts5(text, title,")
        let problems = ["Note.search: table 'notes' has no column 'title' to index",
                        "Note.search: no update trigger on 'notes' fires when 'title' changes"]
        await #expect(throws: QSDataError.schemaMismatch(problems)) {
            _ = try await QSStore.open(
                at: Fixtures.temporaryDatabaseURL(), model: model,
                schema: QSSchema(creationSQL: Fixtures.schemaSQL + sql), types: Fixtures.allTypes)
        }
    }

    @Test func aWithoutRowidTableIsRefused() async throws {
        let sql = SearchFixtures.postsSQL.replacingOccurrences(
            of: "body TEXT NOT NULL);", with: "body TEXT NOT NULL) WITHOUT ROWID;")
        await #expect(throws: QSDataError.self) { _ = try await SearchFixtures.openPostsStore(sql: sql) }
    }
}
