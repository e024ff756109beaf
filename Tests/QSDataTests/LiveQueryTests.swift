import Foundation
import QSData
import Testing

/// Live queries: results that stay current, re-fetched once per burst of relevant changes and
/// never for unrelated ones. Every wait is bounded by the suite's time limit.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct LiveQueryTests {
    private let timeline = QSQuery(TimelineNote.self, where: "archived = 0", orderBy: "sortDate DESC, uniqueID")

    private func openStoreWithNotes() async throws -> QSStore {
        let store = try await Fixtures.openStore()
        try store.save((1...3).map { Note(uniqueID: Int64($0), text: "note \($0)", sortDate: Fixtures.referenceDate + Double($0)) })
        try await store.flush()
        return store
    }

    /// The statements that read the notes table for a fetch (the live query's re-fetches).
    private func fetchesOfNotes(_ log: QSStatementLog) -> [String] {
        log.statements.filter { $0.hasPrefix("SELECT") && $0.contains("FROM \"notes\"") }
    }

    // MARK: The first value

    @Test func theLiveQueryStartsWithTheCurrentResults() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(timeline)
        #expect(live.objects.map(\.uniqueID) == [3, 2, 1])
        #expect(live.refetchCount == 0)
        #expect(live.isActive)
    }

    @Test func theSequenceStartsWithTheCurrentResults() async throws {
        let store = try await openStoreWithNotes()
        var iterator = store.liveResults(timeline).makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.map(\.uniqueID) == [3, 2, 1])
    }

    @Test func aBadConditionThrowsAtTheFirstFetch() async throws {
        let store = try await openStoreWithNotes()
        await #expect(throws: SQLiteError.self) {
            _ = try await store.liveQuery(QSQuery(TimelineNote.self, where: "noSuchColumn = 1"))
        }
    }

    // MARK: One re-fetch per burst, none for unrelated changes

    @Test func aBurstOfChangesCostsOneRefetch() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(timeline)
        let log = try await store.recordStatements {
            try store.save(Note(uniqueID: 4, text: "four", sortDate: Fixtures.referenceDate + 4))
            try store.save(Note(uniqueID: 5, text: "five", sortDate: Fixtures.referenceDate + 5))
            try store.update(Note.self, ids: [1], set: ["archived": true])
            try await live.waitUntilCurrent()
        }
        #expect(fetchesOfNotes(log).count == 1, "\(log)")
        #expect(live.refetchCount == 1)
        #expect(live.objects.map(\.uniqueID) == [5, 4, 3, 2])
    }

    @Test func changesDeliveredAfterTheRefetchRanCostNothingMore() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(timeline)
        let log = try await store.recordStatements {
            for id in Int64(10)...Int64(19) {
                try store.save(Note(uniqueID: id, text: "note \(id)", sortDate: Fixtures.referenceDate + Double(id)))
                try await store.flush()  // each write committed and delivered on its own turn
            }
            try await live.waitUntilCurrent()
        }
        // Ten separate bursts: at most one re-fetch each, and the results end current.
        #expect(fetchesOfNotes(log).count == live.refetchCount)
        #expect(live.refetchCount >= 1 && live.refetchCount <= 10)
        #expect(live.objects.count == 13)
    }

    @Test func changesToUnrelatedTypesRunNoSQL() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(timeline)
        let log = try await store.recordStatements {
            try store.save(Tag(name: "Unrelated"))
            try store.save([Attachment(uniqueID: "a1")])
            try await live.waitUntilCurrent()
        }
        #expect(fetchesOfNotes(log).isEmpty, "\(log)")
        #expect(log.statements.allSatisfy { !$0.hasPrefix("SELECT") }, "\(log)")
        #expect(live.refetchCount == 0)
    }

    @Test func aChangeByAnotherTypeOnTheSameTableRefetches() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(timeline)
        let note = try #require(try await store.fetch(Note.self, id: 2))
        note.archived = true
        try store.save(note)
        try await live.waitUntilCurrent()
        #expect(live.objects.map(\.uniqueID) == [3, 1])
        #expect(live.refetchCount == 1)
    }

    @Test func aChangeToARelatedChildTypeRefetchesTheParents() async throws {
        let store = try await Fixtures.openStore()
        let tag = Tag(name: "Swift")
        try store.save(Note(uniqueID: 1, text: "one", attachments: [Attachment(uniqueID: "p1", width: 10)]))
        try store.save(Note(uniqueID: 2, text: "two", tags: [tag]))
        let live = try await store.liveQuery(QSQuery(Note.self, orderBy: "uniqueID"))
        try store.save([Attachment(uniqueID: "unrelated")])  // an attachment no note has: still its type
        try await live.waitUntilCurrent()
        #expect(live.refetchCount == 1)
        #expect(live.objects[1].tags.map(\.name) == ["Swift"])
    }

    @Test func resultsKeepTheSameInstancesAsEveryOtherFetch() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(QSQuery(Note.self, orderBy: "uniqueID"))
        let fetched = try await store.fetchAll(Note.self, orderBy: "uniqueID")
        #expect(zip(live.objects, fetched).allSatisfy { $0 === $1 })
        try store.save(Note(uniqueID: 9, text: "nine"))
        try await live.waitUntilCurrent()
        #expect(live.objects.prefix(3).elementsEqual(fetched) { $0 === $1 })
        #expect(live.objects.last === (try await store.fetch(Note.self, id: 9)))
    }

    // MARK: Applying a change without SQL

    @Test func aBulkUpdateOfAColumnTheQueryDoesNotReadIsAppliedWithoutSQL() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(QSQuery(Note.self, where: "archived = 0", orderBy: "sortDate DESC"))
        let log = try await store.recordStatements {
            try store.update(Note.self, ids: [2], set: ["text": "patched"])
            try await live.waitUntilCurrent()
        }
        #expect(log.count == 1, "\(log)")  // the UPDATE alone
        #expect(live.patchCount == 1)
        #expect(live.refetchCount == 0)
        #expect(live.objects.map(\.text) == ["note 3", "patched", "note 1"])
    }

    @Test func aBulkUpdateByConditionIsAppliedWithoutSQLToo() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(QSQuery(Note.self, orderBy: "uniqueID"))
        let log = try await store.recordStatements {
            try store.update(Note.self, where: "uniqueID >= ?", arguments: [.integer(2)], set: ["text": "later"])
            try await live.waitUntilCurrent()
        }
        #expect(fetchesOfNotes(log).isEmpty, "\(log)")
        #expect(live.patchCount == 1)
        #expect(live.objects.map(\.text) == ["note 1", "later", "later"])
    }

    @Test func aBulkUpdateOfAColumnTheConditionReadsRefetches() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(QSQuery(Note.self, where: "archived = 0", orderBy: "sortDate DESC"))
        let log = try await store.recordStatements {
            try store.update(Note.self, ids: [2], set: ["archived": true])
            try await live.waitUntilCurrent()
        }
        #expect(live.patchCount == 0)
        #expect(live.refetchCount == 1)
        #expect(live.objects.map(\.uniqueID) == [3, 1])
        #expect(log.statements.contains { $0.hasPrefix("SELECT") && $0.contains("FROM \"notes\"") }, "\(log)")
    }

    @Test func aBulkUpdateOfAColumnTheOrderReadsRefetches() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(QSQuery(Note.self, orderBy: "sortDate DESC"))
        try store.update(Note.self, ids: [1], set: ["sortDate": Fixtures.referenceDate + 100])
        try await live.waitUntilCurrent()
        #expect(live.refetchCount == 1)
        #expect(live.objects.map(\.uniqueID) == [1, 3, 2])
    }

    @Test func valueTypesAreRefetchedAfterABulkUpdate() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(QSQuery(TimelineNote.self, orderBy: "uniqueID"))
        try store.update(Note.self, ids: [1], set: ["text": "new"])
        try await live.waitUntilCurrent()
        #expect(live.refetchCount == 1)
        #expect(live.objects.map(\.text) == ["new", "note 2", "note 3"])
    }

    @Test func aBulkUpdateOfRowsOutsideTheResultsChangesNothing() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(QSQuery(Note.self, where: "uniqueID < 3", orderBy: "uniqueID"))
        let log = try await store.recordStatements {
            try store.update(Note.self, ids: [3], set: ["text": "elsewhere"])
            try await live.waitUntilCurrent()
        }
        #expect(log.count == 1, "\(log)")
        #expect(live.patchCount == 0 && live.refetchCount == 0)
    }

    // MARK: Stopping

    @Test func aCancelledLiveQueryRunsNoMoreSQL() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(timeline)
        live.cancel()
        #expect(!live.isActive)
        let log = try await store.recordStatements {
            try store.save(Note(uniqueID: 7, text: "seven"))
            try await store.flush()
        }
        #expect(fetchesOfNotes(log).isEmpty, "\(log)")
        #expect(live.objects.count == 3)
    }

    @Test func aReleasedLiveQueryRunsNoMoreSQL() async throws {
        let store = try await openStoreWithNotes()
        var live: QSLiveQuery<TimelineNote>? = try await store.liveQuery(timeline)
        weak let released = live
        live = nil
        #expect(released == nil)
        let log = try await store.recordStatements {
            try store.save(Note(uniqueID: 7, text: "seven"))
            try await store.flush()
        }
        #expect(fetchesOfNotes(log).isEmpty, "\(log)")
    }

    @Test func closingTheStoreStopsTheLiveQuery() async throws {
        let store = try await openStoreWithNotes()
        let live = try await store.liveQuery(timeline)
        try await store.close()
        #expect(!live.isActive)
    }

    // MARK: The sequence

    @Test func theSequenceYieldsNewResultsAfterEachBurst() async throws {
        let store = try await openStoreWithNotes()
        var iterator = store.liveResults(timeline).makeAsyncIterator()
        _ = try await iterator.next()
        try store.save(Note(uniqueID: 4, text: "four", sortDate: Fixtures.referenceDate + 4))
        try store.save(Note(uniqueID: 5, text: "five", sortDate: Fixtures.referenceDate + 5))
        let second = try await iterator.next()
        #expect(second?.map(\.uniqueID) == [5, 4, 3, 2, 1])
    }

    @Test func aSlowLoopGetsTheNewestResults() async throws {
        let store = try await openStoreWithNotes()
        var iterator = store.liveResults(timeline).makeAsyncIterator()
        _ = try await iterator.next()
        try store.save(Note(uniqueID: 4, text: "four", sortDate: Fixtures.referenceDate + 4))
        try await store.flush()
        try store.update(Note.self, ids: [3], set: ["archived": true])
        try await store.flush()
        // Whether the two commits were fetched once or twice, the loop sees the newest results.
        var latest = try await iterator.next()
        while latest?.map(\.uniqueID) != [4, 2, 1] {
            latest = try await iterator.next()
        }
        #expect(latest?.map(\.uniqueID) == [4, 2, 1])
    }

    @Test func theSequenceEndsWhenTheStoreCloses() async throws {
        let store = try await openStoreWithNotes()
        var iterator = store.liveResults(timeline).makeAsyncIterator()
        _ = try await iterator.next()
        try await store.close()
        #expect(try await iterator.next() == nil)
    }

    @Test func cancellingTheLoopsTaskEndsTheSequence() async throws {
        let store = try await openStoreWithNotes()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let loop = Task { @MainActor in
            var count = 0
            for try await _ in store.liveResults(timeline) {
                count += 1
                startedContinuation.yield()
            }
            return count
        }
        var startedIterator = started.makeAsyncIterator()
        await startedIterator.next()
        loop.cancel()
        #expect(try await loop.value == 1)
        let log = try await store.recordStatements {
            try store.save(Note(uniqueID: 8, text: "eight"))
            try await store.flush()
        }
        #expect(fetchesOfNotes(log).isEmpty, "\(log)")
    }
}
