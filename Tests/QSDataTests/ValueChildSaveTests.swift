import Foundation
import QSData
import Testing

/// Saving a parent writes a value-type child's row only when the row does not exist yet: the copy
/// a parent holds may be older than the row. To change a child's row, the app saves the child.
@MainActor
@Suite struct ValueChildSaveTests {
    private struct Refused: Error {}

    private func labels(_ names: String...) -> [ChoreLabel] {
        names.map { ChoreLabel(uniqueID: $0.lowercased(), name: $0) }
    }

    @Test func aParentsOlderCopyOfAChildDoesNotOverwriteTheChildsNewerSave() async throws {
        let store = try await ChoreFixtures.openStore()
        let chore = Chore(uniqueID: 1, title: "Call the plumber", labels: [ChoreLabel(uniqueID: "u", name: "Urgent")])
        try store.save(chore)
        try store.save(ChoreLabel(uniqueID: "u", name: "Today"))
        chore.title = "Call the plumber back"
        let log = try await store.recordStatements {
            try store.save(chore)
            try await store.flush()
        }
        // The chore's row is read (its hash changed) and its title written; the label it holds is not.
        #expect(log.count == 2, "\(log)")
        #expect(log.statements.first?.hasPrefix("SELECT \"uniqueID\"") == true, "\(log)")
        #expect(log.statements.last?.hasPrefix("UPDATE \"chores\"") == true, "\(log)")
        #expect(try await ChoreFixtures.storedName(ofLabel: "u", in: store) == "Today")
        #expect(try await store.fetchRows("SELECT title FROM chores") == [["Call the plumber back"]])
    }

    @Test func savingAnUnchangedParentWithThreeValueChildrenRunsNoStatement() async throws {
        let store = try await ChoreFixtures.openStore()
        let chore = Chore(uniqueID: 1, title: "Shop", labels: labels("Errand", "Weekly", "Car"))
        try store.save(chore)
        try await store.flush()
        let log = try await store.recordStatements {
            try store.save(chore)
            try await store.flush()
        }
        #expect(log.count == 0, "\(log)")
    }

    @Test func aFetchedParentWithThreeValueChildrenSavedUnchangedRunsNoStatement() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let writer = try await ChoreFixtures.openStore(url: url)
        try writer.save(Chore(uniqueID: 1, title: "Shop", labels: labels("Errand", "Weekly", "Car")))
        try await writer.close()

        let store = try await ChoreFixtures.openStore(url: url)
        let chore = try #require(try await store.fetch(Chore.self, id: 1))
        #expect(chore.labels.map(\.name) == ["Errand", "Weekly", "Car"])
        let log = try await store.recordStatements {
            try store.save(chore)
            try await store.flush()
        }
        #expect(log.count == 0, "\(log)")
    }

    @Test func aNewChildOfASavedParentIsInserted() async throws {
        let store = try await ChoreFixtures.openStore()
        let chore = Chore(uniqueID: 1, title: "Shop", labels: labels("Errand"))
        try store.save(chore)
        chore.labels += labels("Weekly")
        let log = try await store.recordStatements {
            try store.save(chore)
            try await store.flush()
        }
        // The new child's row and its lookup row; nothing for the child that was there.
        #expect(log.count == 2, "\(log)")
        #expect(log.statements.filter { $0.hasPrefix("INSERT INTO \"labels\"") }.count == 1, "\(log)")
        #expect(log.statements.filter { $0.hasPrefix("INSERT OR FAIL INTO \"choreLabels\"") }.count == 1, "\(log)")
        #expect(try await ChoreFixtures.storedName(ofLabel: "weekly", in: store) == "Weekly")
    }

    @Test func aNewParentInsertsItsNewChildrenOnceAndTogether() async throws {
        let store = try await ChoreFixtures.openStore()
        let log = try await store.recordStatements {
            try store.save(Chore(uniqueID: 1, title: "Shop", labels: labels("Errand", "Weekly", "Car")))
            try await store.flush()
        }
        // The three children's rows go in together, two rows a statement and one.
        let childInserts = log.statements.filter { $0.hasPrefix("INSERT OR FAIL INTO \"labels\"") }
        #expect(childInserts.count == 2, "\(log)")
        #expect(!log.statements.contains { $0.hasPrefix("UPDATE") }, "\(log)")
        #expect(try await store.fetchRows("SELECT name FROM labels ORDER BY name").map { $0[0].plain } == ["Car", "Errand", "Weekly"])
    }

    enum Deletion: String, CaseIterable {
        case byObject, byID, byCondition, byCascadeFromAnotherParent
    }

    /// A parent the store doesn't hold yet (so no delete patches it) still lists a child deleted
    /// meanwhile: its row must exist, so saving the parent inserts it again.
    @Test(arguments: Deletion.allCases)
    func aChildDeletedByTheStoreIsInsertedAgainByAParentThatListsIt(deletion: Deletion) async throws {
        let store = try await ChoreFixtures.openStore()
        let label = ChoreLabel(uniqueID: "u", name: "Urgent")
        let first = Chore(uniqueID: 1, title: "Call the plumber", labels: [label])
        try store.save(first)
        let second = Chore(uniqueID: 2, title: "Pay the plumber", labels: [label])
        switch deletion {
        case .byObject: try store.delete([label])
        case .byID: try store.delete(ChoreLabel.self, ids: ["u"])
        case .byCondition: try store.delete(ChoreLabel.self, where: "name = ?", arguments: [.text("Urgent")])
        case .byCascadeFromAnotherParent: try store.delete([first])
        }
        try await store.flush()
        #expect(try await ChoreFixtures.storedName(ofLabel: "u", in: store) == nil)
        let log = try await store.recordStatements {
            try store.save(second)
            try await store.flush()
        }
        #expect(log.statements.filter { $0.hasPrefix("INSERT INTO \"labels\"") }.count == 1, "\(log)")
        #expect(try await ChoreFixtures.storedName(ofLabel: "u", in: store) == "Urgent")
        #expect(try await PodcastFixtures.lookupRows("choreLabels", in: store).contains("2>u"))
    }

    @Test func aChildWhoseInsertRolledBackIsInsertedByTheNextSave() async throws {
        let store = try await ChoreFixtures.openStore()
        let chore = Chore(uniqueID: 1, title: "Shop")
        try store.save(chore)
        chore.labels = labels("Errand")
        let failed = try store.save([chore], alongside: { _ in throw Refused() })
        await #expect(throws: QSWriteError.self) { try await failed.committed() }
        #expect(try await ChoreFixtures.storedName(ofLabel: "errand", in: store) == nil)

        chore.labels = labels("Errand")
        let log = try await store.recordStatements {
            try store.save(chore)
            try await store.flush()
        }
        #expect(log.statements.filter { $0.hasPrefix("INSERT INTO \"labels\"") }.count == 1, "\(log)")
        #expect(try await ChoreFixtures.storedName(ofLabel: "errand", in: store) == "Errand")
    }

    @Test(arguments: [false, true])
    func aChildRowDeletedByTheAppsSQLIsInsertedAgainWhenItsParentListsItAgain(waiting: Bool) async throws {
        let store = try await ChoreFixtures.openStore()
        let chore = Chore(uniqueID: 1, title: "Call the plumber", labels: [ChoreLabel(uniqueID: "u", name: "Urgent")])
        try store.save(chore)
        if waiting {
            try await store.writeAndWait { db in try db.execute("DELETE FROM labels WHERE uniqueID = 'u'") }
        } else {
            try store.write { db in try db.execute("DELETE FROM labels WHERE uniqueID = 'u'") }
        }
        try await store.flush()
        // The change log told the store: the held chore no longer lists the deleted label.
        #expect(chore.labels.isEmpty)

        // Listed again, the label's row is written again: the store does not take it to exist.
        chore.labels = [ChoreLabel(uniqueID: "u", name: "Urgent")]
        let log = try await store.recordStatements {
            try store.save(chore)
            try await store.flush()
        }
        #expect(log.statements.filter { $0.hasPrefix("INSERT INTO \"labels\"") }.count == 1, "\(log)")
        #expect(try await ChoreFixtures.storedName(ofLabel: "u", in: store) == "Urgent")
    }

    /// A uniqued child is the store's own instance, not a copy: saving its parent writes what
    /// changed in it, as before.
    @Test func savingAParentWritesTheChangesOfItsUniquedChild() async throws {
        let store = try await Fixtures.openStore(tagsCached: false)
        let tag = Tag(name: "Urgent")
        let note = Note(uniqueID: 1, text: "Call the plumber", tags: [tag])
        try store.save(note)
        tag.name = "Today"
        let log = try await store.recordStatements {
            try store.save(note)
            try await store.flush()
        }
        // The tag's row is read (its hash changed) and its name written; the note, unchanged, costs nothing.
        #expect(log.count == 2, "\(log)")
        #expect(log.statements.first?.hasPrefix("SELECT \"uniqueID\", \"name\" FROM \"tags\"") == true, "\(log)")
        #expect(log.statements.last?.hasPrefix("UPDATE \"tags\"") == true, "\(log)")
        #expect(try await store.fetchRows("SELECT name FROM tags") == [["Today"]])
    }
}
