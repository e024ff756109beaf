@testable import QSData
import Testing

/// The list a type binding's fetch appends each row's object to: elements kept in order across
/// growth, moved (not copied) into the finished array, and released when never handed over.
struct AppendedListTests {
    final class Tracked {
        let number: Int

        init(_ number: Int) {
            self.number = number
        }
    }

    @Test
    func elementsComeOutInOrderPastEveryGrowthAndTheListIsLeftEmpty() {
        let list = AppendedList<Int?>(capacity: 3)
        for number in 0 ..< 100 { list.append(number.isMultiple(of: 7) ? nil : number) }
        let finished = list.finished()
        #expect(finished == (0 ..< 100).map { $0.isMultiple(of: 7) ? nil : $0 })
        #expect(list.finished().isEmpty)
        list.append(5)
        #expect(list.finished() == [5])
    }

    @Test
    func finishedMovesTheElementsAndTheListReleasesWhatItStillHolds() {
        weak var handedOver: Tracked?
        weak var leftBehind: Tracked?
        var finished: [Tracked] = []
        do {
            let list = AppendedList<Tracked>(capacity: 1)
            let first = Tracked(1)
            handedOver = first
            list.append(first)
            list.append(Tracked(2))
            finished = list.finished()
            let second = Tracked(3)
            leftBehind = second
            list.append(second)
        }
        #expect(finished.map(\.number) == [1, 2])
        #expect(handedOver != nil, "the finished array holds it")
        #expect(leftBehind == nil, "the list released the element it still held")
        #expect(isKnownUniquelyReferenced(&finished[0]), "moved, not copied: the array holds the only reference")
    }

    @Test
    func anEmptyListFinishesEmpty() {
        #expect(AppendedList<String>().finished().isEmpty)
        #expect(AppendedList<String>(capacity: 0).finished().isEmpty)
    }
}
