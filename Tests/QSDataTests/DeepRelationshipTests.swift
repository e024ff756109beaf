import Foundation
import QSData
import Testing

/// Relationships that nest deep: a chain of steps each listing the next, and objects that list
/// one another in a cycle. A save follows any depth; a fetch loading a relationship eagerly
/// follows a bounded one and says clearly when the data goes deeper, and lazy loading reads it.
@MainActor
struct DeepRelationshipTests {
    /// Steps 1…`count`, each listing the next in its `seeAlso`.
    private func chain(of count: Int) -> [Step] {
        let steps = (1 ... Int64(count)).map { Step(uniqueID: $0, title: "step \($0)") }
        for (step, next) in zip(steps, steps.dropFirst()) { step.seeAlso = [next] }
        return steps
    }

    /// Passages 1 ("there") and 2 ("and back again"), each listing the other.
    private func twoPassagesListingEachOther() -> (Passage, Passage) {
        let first = Passage(uniqueID: 1, text: "there")
        let second = Passage(uniqueID: 2, text: "and back again")
        first.next = QSRelated([second])
        second.next = QSRelated([first])
        return (first, second)
    }

    /// A store opened afresh on a file holding steps 1…`count`, each listing the next.
    private func reopenedStore(holdingAChainOf count: Int) async throws -> QSStore {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await SelfRelatedFixtures.openStore(url: url)
        try store.save([chain(of: count)[0]])
        try await store.close()
        return try await SelfRelatedFixtures.openStore(url: url)
    }

    @Test func aChainThousandsOfLevelsDeepIsSavedThroughItsFirstStep() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await SelfRelatedFixtures.openStore(url: url)
        let steps = chain(of: 5_000)
        try store.save([steps[0]])
        try await store.flush()

        #expect(try await store.fetchRows("SELECT count(*), min(uniqueID), max(uniqueID) FROM steps") == [[.integer(5_000), .integer(1), .integer(5_000)]])
        let links = try await store.fetchRows("SELECT count(*) FROM stepLinks WHERE childID = parentID + 1")
        #expect(links == [[.integer(4_999)]])
        #expect(try await store.fetchRows("SELECT count(*) FROM stepLinks") == [[.integer(4_999)]])

        // Unchanged, the whole chain saved again writes nothing.
        let again = try await store.recordStatements {
            try store.save([steps[0]])
            try await store.flush()
        }
        #expect(again.statements == [])
        try await store.close()
    }

    @Test func aChainAsDeepAsAFetchLoadsEagerlyIsReadWhole() async throws {
        let levels = QSStore.deepestEagerLoading
        let store = try await reopenedStore(holdingAChainOf: levels + 1)
        let first = try #require(try await store.fetch(Step.self, id: 1))
        var titles: [String] = []
        var step: Step? = first
        while let current = step {
            titles.append(current.title)
            step = current.seeAlso.first
        }
        #expect(titles == (1 ... levels + 1).map { "step \($0)" })
        try await store.close()
    }

    @Test func aChainDeeperThanAFetchLoadsEagerlyThrows() async throws {
        let levels = QSStore.deepestEagerLoading
        let store = try await reopenedStore(holdingAChainOf: levels + 2)
        await #expect(throws: QSDataError.eagerLoadingTooDeep(type: "Step", relationship: "seeAlso", levels: levels)) {
            _ = try await store.fetch(Step.self, id: 1)
        }
        // The step one level down is within reach.
        let second = try #require(try await store.fetch(Step.self, id: 2))
        #expect(second.seeAlso.first?.title == "step 3")
        try await store.close()
    }

    @Test func objectsListingOneAnotherThrowWhenLoadedEagerlyAndReadLazily() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        var store = try await SelfRelatedFixtures.openStore(url: url)
        let (first, _) = twoPassagesListingEachOther()
        try store.save([first])
        try await store.close()

        store = try await SelfRelatedFixtures.openStore(url: url)
        await #expect(throws: QSDataError.eagerLoadingTooDeep(type: "Passage", relationship: "next", levels: QSStore.deepestEagerLoading)) {
            _ = try await store.fetch(Passage.self, id: 1)
        }

        // Lazily: the first passage with its child's uniqueID; its child then made with the first
        // as its own child, found held rather than fetched again.
        let there = try #require(try await store.fetch(Passage.self, ids: [1], loading: ["next": .lazy]).first)
        #expect(there.next.ids == [2])
        #expect(there.next.isLoaded == false)
        let back = try await store.fetchChildren(there.next)
        #expect(back.map(\.text) == ["and back again"])
        #expect(back.first?.next.children?.first === there)
        try await store.close()
    }

    @Test func deletingTheFirstOfAChainThousandsOfLevelsDeepCascadesToTheLast() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await SelfRelatedFixtures.openStore(url: url)
        let passages = (1 ... Int64(3_000)).map { Passage(uniqueID: $0, text: "passage \($0)") }
        for (passage, next) in zip(passages, passages.dropFirst()) { passage.next = QSRelated([next]) }
        try store.save([passages[0]])
        try store.delete([passages[0]])
        try await store.flush()

        #expect(try await store.fetchRows("SELECT count(*) FROM passages") == [[.integer(0)]])
        #expect(try await store.fetchRows("SELECT count(*) FROM passageLinks") == [[.integer(0)]])
        try await store.close()
    }

    @Test func deletingOneOfObjectsListingOneAnotherCascadesToTheOtherOnce() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await SelfRelatedFixtures.openStore(url: url)
        let (first, _) = twoPassagesListingEachOther()  // the first holds the second
        let aside = Passage(uniqueID: 3, text: "aside")
        try store.save([first, aside])
        try await store.flush()
        var deleted: Set<Int64> = []
        let observation = store.observeChanges { deleted.formUnion($0.deletedIDs(of: Passage.self)) }
        let log = try await store.recordStatements {
            try store.delete([first])
            try await store.flush()
        }
        observation.cancel()
        #expect(try await store.fetchRows("SELECT uniqueID FROM passages") == [[.integer(3)]])
        #expect(try await store.fetchRows("SELECT count(*) FROM passageLinks") == [[.integer(0)]])
        #expect(deleted == [1, 2])
        // The one deleted by the cascade, on the same table, is forgotten too: the test still holds it.
        #expect(try store.cachedObject(of: Passage.self, id: 2) == nil)
        #expect(try await store.fetch(Passage.self, id: 2) == nil)
        #expect(log.count == 6, "\(log)")
        try await store.close()
    }

    @Test func aFolderSavedItselfWinsOverTheOlderCopyItsParentHolds() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await SelfRelatedFixtures.openStore(url: url)
        let inbox = Folder(uniqueID: 2, name: "Inbox")
        let root = Folder(uniqueID: 1, name: "Root", subfolders: [inbox])
        try store.save([root])
        var renamed = inbox
        renamed.name = "Mail"
        // The root still holds the folder under its old name; the folder saved itself is newer,
        // whichever comes first.
        try store.save([root, renamed])
        try await store.flush()
        #expect(try await store.fetchRows("SELECT name FROM folders WHERE uniqueID = 2") == [[.text("Mail")]])
        #expect(try store.cachedObject(of: Folder.self, id: 2)?.name == "Mail")
        renamed.name = "Letters"
        try store.save([renamed, root])
        try await store.flush()
        #expect(try await store.fetchRows("SELECT name FROM folders WHERE uniqueID = 2") == [[.text("Letters")]])
        #expect(try store.cachedObject(of: Folder.self, id: 2)?.name == "Letters")
        try await store.close()
    }

    @Test func aSaveWhoseChildFailsToEncodeThrowsAndKeepsNothing() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await SelfRelatedFixtures.openStore(url: url)
        let parent = Step(uniqueID: 1, title: "parent")
        let child = Step(uniqueID: 2, title: "child")
        child.failsToEncode = true
        parent.seeAlso = [child]
        #expect(throws: QSDataError.unknownColumn(type: "Step", column: "noSuchColumn")) {
            try store.save([parent])
        }
        try await store.flush()
        // Neither is held as saved, and nothing was written.
        #expect(try store.cachedObject(of: Step.self, id: 1) == nil)
        #expect(try store.cachedObject(of: Step.self, id: 2) == nil)
        #expect(try await store.fetchRows("SELECT count(*) FROM steps") == [[.integer(0)]])
        try await store.close()
    }
}
