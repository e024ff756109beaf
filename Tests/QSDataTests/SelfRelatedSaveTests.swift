import Foundation
import QSData
import Testing

/// A type whose relationship lists objects of the same type, itself among them: a save reads the
/// object saved and the same object reached as its own child where they lie, both at once (see
/// `InPlace`), and writes its row once with every lookup row.
@MainActor
struct SelfRelatedSaveTests {
    @Test func anObjectListedAmongItsOwnChildrenIsSavedOnceWithItsLookupRows() async throws {
        let url = Fixtures.temporaryDatabaseURL()
        let store = try await SelfRelatedFixtures.openStore(url: url)
        let first = Step(uniqueID: 1, title: "first")
        let second = Step(uniqueID: 2, title: "second")
        first.seeAlso = [first, second]
        second.seeAlso = [first]
        try store.save([first, second])
        try await store.flush()

        // The lookup rows, in each parent's order (the order values themselves are spaced out).
        let rows = try await store.fetchRows("SELECT parentID, childID FROM stepLinks ORDER BY parentID, ix")
        #expect(rows == [[.integer(1), .integer(1)], [.integer(1), .integer(2)], [.integer(2), .integer(1)]])
        let steps = try await store.fetchRows("SELECT uniqueID, title FROM steps ORDER BY uniqueID")
        #expect(steps == [[.integer(1), .text("first")], [.integer(2), .text("second")]])

        // Unchanged, saved again: nothing to write.
        let again = try await store.recordStatements {
            try store.save([first, second])
            try await store.flush()
        }
        #expect(again.statements == [])
        try await store.close()
        // Checked with SQL rather than read back: eager loading can never finish a cycle (a step
        // listing itself), so a fetch throws instead (see `DeepRelationshipTests`).
    }
}
