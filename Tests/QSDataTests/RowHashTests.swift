import Foundation
@testable import QSData
import Testing

/// What a held row's snapshot keeps of its values: a hash that rows with the same values share and
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

    @Test
    func textsAndBlobsDifferByLengthAndByEveryByte() {
        // The same bytes split between columns otherwise, and a last byte of zero.
        #expect(RowHash(of: ["ab", "c"] as [SQLValue]) != RowHash(of: ["a", "bc"] as [SQLValue]))
        #expect(RowHash(of: ["a"] as [SQLValue]) != RowHash(of: ["a\u{0}"] as [SQLValue]))
        #expect(RowHash(of: [SQLValue.text("")]) != RowHash(of: [SQLValue.null]))
        #expect(RowHash(of: [SQLValue.text("")]) != RowHash(of: [SQLValue.blob(Data())]))
        // Each byte of a longer text: its eight-byte words and its tail.
        let text = "a title of some length, past a few words"
        var bytes = Array(text.utf8)
        for index in bytes.indices {
            let original = bytes[index]
            bytes[index] = original ^ 1
            #expect(RowHash(of: [SQLValue.text(String(decoding: bytes, as: UTF8.self))]) != RowHash(of: [SQLValue.text(text)]))
            bytes[index] = original
        }
        // An integer and a real with the same 64 bits.
        #expect(RowHash(of: [SQLValue.integer(Int64(bitPattern: 2.5.bitPattern))]) != RowHash(of: [SQLValue.real(2.5)]))
    }

    @Test
    func aTextSpelledOtherwiseButEqualIsNoColumnToWrite() {
        // "é" as one scalar, and as "e" with a combining accent: equal texts in other bytes. The
        // hashes differ, so a save reads the row; comparing the values finds nothing to write.
        let composed: [SQLValue] = [1, "caf\u{E9}"]
        let decomposed: [SQLValue] = [1, "cafe\u{301}"]
        #expect(composed == decomposed)
        #expect(RowHash(of: composed) != RowHash(of: decomposed))
        #expect(ColumnsTheAppChanged.find(in: decomposed, current: composed, shown: RowHash(of: composed)) == [])
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
