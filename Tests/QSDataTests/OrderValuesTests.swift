@testable import QSData
import Testing

/// The order values a lookup row takes when children are added or moved: spread evenly between
/// their neighbours', a gap apart past either end, and none when two neighbours leave no room.
@Suite struct OrderValuesTests {
    let gap = LookupDiff.gap

    @Test func withNoNeighboursTheValuesAreThoseOfRowsWrittenAfresh() throws {
        let values = try #require(OrderValues(count: 3, after: nil, before: nil))
        #expect(Array(values) == [0, gap, 2 * gap])
    }

    @Test func afterTheLastRowEachValueIsAGapFurther() throws {
        let values = try #require(OrderValues(count: 2, after: 10, before: nil))
        #expect(Array(values) == [10 + gap, 10 + 2 * gap])
    }

    @Test func beforeTheFirstRowEachValueIsAGapEarlierAndTheyStayInOrder() throws {
        let values = try #require(OrderValues(count: 3, after: nil, before: 0))
        #expect(Array(values) == [-3 * gap, -2 * gap, -gap])
    }

    @Test func betweenTwoRowsTheValuesAreSpreadEvenly() throws {
        let values = try #require(OrderValues(count: 3, after: 0, before: 100))
        #expect(Array(values) == [25, 50, 75])
        let one = try #require(OrderValues(count: 1, after: 4, before: 6))
        #expect(Array(one) == [5])
    }

    @Test func twoNeighboursWithTooFewIntegersBetweenThemLeaveNoRoom() {
        #expect(OrderValues(count: 1, after: 4, before: 5) == nil)
        #expect(OrderValues(count: 2, after: 4, before: 6) == nil)
        #expect(OrderValues(count: 2, after: 4, before: 7) != nil)
    }

    @Test func noValuesAreAlwaysRoom() throws {
        let values = try #require(OrderValues(count: 0, after: 4, before: 5))
        #expect(values.isEmpty)
    }
}
