import Foundation
@testable import QSData
import Testing

/// What a held row's snapshot keeps of its values: a hash that rows equal as `SQLValue`s share and
/// rows that differ anywhere don't, and, from it, which columns the app changed.
struct RowHashTests {
    @Test
    func equalRowsHashAlikeAndADifferenceAnywhereShows() {
        let row: [SQLValue] = [1, "a title", .real(2.5), .null, .blob(Data(repeating: 7, count: 200))]
        #expect(RowHash(of: row) == RowHash(of: Array(row)))
        // Equal as `==` has them: 0.0 and -0.0.
        #expect(RowHash(of: [SQLValue.real(0.0)]) == RowHash(of: [SQLValue.real(-0.0)]))
        // A blob that differs far past its first bytes (Data's own hash would not see it).
        var blob = Data(repeating: 7, count: 200)
        blob[150] = 8
        var changed = row
        changed[4] = .blob(blob)
        #expect(RowHash(of: changed) != RowHash(of: row))
        // The storage class counts: an integer is not the real of the same number, NULL is not 0.
        #expect(RowHash(of: [SQLValue.integer(1)]) != RowHash(of: [SQLValue.real(1)]))
        #expect(RowHash(of: [SQLValue.null]) != RowHash(of: [SQLValue.integer(0)]))
        // Values in other columns.
        #expect(RowHash(of: ["a", "b"] as [SQLValue]) != RowHash(of: ["b", "a"] as [SQLValue]))
    }

    // The row as the instance showed it: (id 1, "title", 0, "body").
    private let shown: [SQLValue] = [1, "title", 0, "body"]

    @Test
    func withNoOtherWriterTheColumnsThatDifferAreTheApps() {
        let values: [SQLValue] = [1, "new title", 0, "body"]
        #expect(ColumnsTheAppChanged.find(in: values, current: shown, shown: RowHash(of: shown)) == [1])
        #expect(ColumnsTheAppChanged.find(in: shown, current: shown, shown: RowHash(of: shown)) == [])
    }

    @Test
    func anotherWritersColumnsAreToldFromTheApps() {
        // The app changed the title; another writer set the flag and the body.
        let values: [SQLValue] = [1, "new title", 0, "body"]
        let current: [SQLValue] = [1, "title", 1, "their body"]
        #expect(ColumnsTheAppChanged.find(in: values, current: current, shown: RowHash(of: shown)) == [1])
        // The app changed nothing: every difference is the other writer's.
        #expect(ColumnsTheAppChanged.find(in: shown, current: current, shown: RowHash(of: shown)) == [])
        // Both set the same value: nothing differs, nothing to write.
        let same: [SQLValue] = [1, "title", 1, "body"]
        #expect(ColumnsTheAppChanged.find(in: same, current: same, shown: RowHash(of: shown)) == [])
    }

    @Test
    func aColumnBothChangedAloneIsTheApps() {
        let values: [SQLValue] = [1, "mine", 0, "body"]
        let current: [SQLValue] = [1, "theirs", 0, "body"]
        #expect(ColumnsTheAppChanged.find(in: values, current: current, shown: RowHash(of: shown)) == [1])
    }

    @Test
    func aColumnBothChangedBesideOthersLeavesTheRowAsWritten() {
        // Both changed the title, and the other writer the body too: the title's old value is in
        // neither row, so no way of telling them apart matches, and the row as written wins.
        let values: [SQLValue] = [1, "mine", 0, "body"]
        let current: [SQLValue] = [1, "theirs", 0, "their body"]
        #expect(ColumnsTheAppChanged.find(in: values, current: current, shown: RowHash(of: shown)) == [])
    }
}
