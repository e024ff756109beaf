@testable import QSData
import Testing

/// Whether a save's list of uniqueIDs names one twice: compared pairwise for a few, through a
/// table of integers or a set of any IDs for more.
@Suite struct RepeatedIDTests {
    @Test(arguments: [0, 1, 2, 8, 9, 1_000])
    func aListRepeatsAnIDOnlyWhenOneComesTwice(count: Int) {
        let integers = (0 ..< count).map { QSAnyID.integer(Int64($0) * 7) }
        let texts = (0 ..< count).map { QSAnyID.string("id \($0)") }
        #expect(!integers.repeatsAnID)
        #expect(!texts.repeatsAnID)
        guard count > 1 else { return }
        // The last repeats the first: the pair furthest apart.
        #expect(Array(integers.dropLast() + [integers[0]]).repeatsAnID)
        #expect(Array(texts.dropLast() + [texts[0]]).repeatsAnID)
        // Two neighbours alike in the middle.
        var doubled = integers
        doubled[count / 2] = doubled[count / 2 - 1]
        #expect(doubled.repeatsAnID)
    }

    @Test func anIntegerAndTheTextOfItsDigitsAreDifferentIDs() {
        let ids: [QSAnyID] = [.integer(12), .string("12")]
        #expect(!ids.repeatsAnID)
        #expect(!(ids + (0 ..< 10).map { QSAnyID.integer(Int64(100 + $0)) }).repeatsAnID)
    }
}
