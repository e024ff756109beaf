import Foundation
import QSData
import Testing

/// A `deny` rule refuses a delete only for children the delete leaves behind: children the same
/// delete takes too, by a cascade at any level or because they were asked for with the parent,
/// do not count, whatever order the store visits the tables in (``AccountFixtures``).
@MainActor
@Suite struct DenyAcrossCascadesTests {
    typealias Account = AccountFixtures.Account
    typealias Folder = AccountFixtures.Folder
    typealias Tag = AccountFixtures.Tag
    typealias Note = AccountFixtures.Note

    /// Object tables, then lookup tables, as ``AccountFixtures/rowCounts(in:tagTable:)`` lists them.
    static let empty: [Int64] = Array(repeating: 0, count: 10)

    /// The tags' table sorts after the notes' ("tags") or before it ("labels"): the store reaches
    /// the notes first in one, the tags, which still list them, first in the other.
    @Test(arguments: ["tags", "labels"])
    func anAccountGoesWithItsTagsAndNotesWhicheverTableComesFirst(tagTable: String) async throws {
        let store = try await AccountFixtures.openStore(tagTable: tagTable)
        let notes = [Note(uniqueID: 1), Note(uniqueID: 2)]
        try store.save(Account(uniqueID: 1, tags: [Tag(uniqueID: 1, notes: notes)], notes: notes))
        try await store.flush()
        #expect(try await AccountFixtures.rowCounts(in: store, tagTable: tagTable) == [1, 0, 1, 2, 1, 2, 0, 0, 2, 0])

        let log = try await store.recordStatements {
            try await store.delete(Account.self, ids: [1]).committed()
        }
        #expect(try await AccountFixtures.rowCounts(in: store, tagTable: tagTable) == Self.empty)
        // The account and its 3 lookup tables, its 3 cascades' children found and the 2 that
        // have any deleted; then per table reached, its deny's children found and its lookup
        // tables: the tag's 2, the notes' 4. Judging the deny at the end runs no statement more.
        #expect(log.count == (1 + 3) + (3 + 2) + (1 + 2) + (1 + 4), "\(log)")
    }

    @Test func notesACascadeReachesOnlyALevelLaterStillCountAsDeleted() async throws {
        let store = try await AccountFixtures.openStore()
        let notes = [Note(uniqueID: 1), Note(uniqueID: 2)]
        // The tag goes in the first cascade, its notes in the next, with their folder.
        try store.save(Account(uniqueID: 1, tags: [Tag(uniqueID: 1, notes: notes)], folders: [Folder(uniqueID: 1, notes: notes)]))
        try await store.delete(Account.self, ids: [1]).committed()
        #expect(try await AccountFixtures.rowCounts(in: store) == Self.empty)
    }

    @Test func aTagWhoseNotesOutliveTheDeleteRefusesItAndNothingIsDeleted() async throws {
        let store = try await AccountFixtures.openStore()
        let kept = Note(uniqueID: 3)
        try store.save([
            Account(uniqueID: 1, tags: [Tag(uniqueID: 1, notes: [Note(uniqueID: 1), kept])], notes: [Note(uniqueID: 1)]),
            Account(uniqueID: 2, notes: [kept]),
        ])
        try await store.flush()
        let before = try await AccountFixtures.rowCounts(in: store)
        #expect(before == [2, 0, 1, 2, 1, 2, 0, 0, 2, 0])

        let write = try store.delete(Account.self, ids: [1])
        do {
            try await write.committed()
            Issue.record("the delete was not refused")
        } catch let error as QSWriteError {
            #expect(error.underlying as? QSDataError == .deleteDenied(type: "Tag", relationship: "notes"))
        }
        #expect(try await AccountFixtures.rowCounts(in: store) == before)
        #expect(try await store.fetch(Account.self, id: 1)?.tags.map { $0.notes.map(\.uniqueID) } == [[1, 3]])
    }

    @Test func notesDeletedTogetherMayPointToEachOtherButNotToANoteLeft() async throws {
        let store = try await AccountFixtures.openStore()
        let second = Note(uniqueID: 2)
        let first = Note(uniqueID: 1, seeAlso: [second])
        try store.save([first, second])
        try await store.flush()

        // In hand, with nothing cascading from the notes' table: refused before any SQL.
        let log = try await store.recordStatements {
            #expect(throws: QSDataError.deleteDenied(type: "Note", relationship: "seeAlso")) {
                try store.delete([first])
            }
        }
        #expect(log.count == 0, "\(log)")
        // By uniqueID, the database finds the child left behind.
        await #expect(throws: QSWriteError.self) { try await store.delete(Note.self, ids: [1]).committed() }
        #expect(try await store.fetchIDs(Note.self, orderBy: "uniqueID") == [1, 2])

        try await store.delete([first, second]).committed()
        #expect(try await store.fetchIDs(Note.self, orderBy: "uniqueID") == [])
        #expect(try await AccountFixtures.rowCounts(in: store) == Self.empty)
    }
}
