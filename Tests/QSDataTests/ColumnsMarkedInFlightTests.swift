@testable import QSData
import Testing

/// The columns saves took from objects that mark their changes, kept until those saves commit:
/// each commit forgets exactly what it and earlier saves took, whatever order the saves took
/// them in, and a column taken again by a later save stays until that save commits.
struct ColumnsMarkedInFlightTests {
    @Test
    func aCommitForgetsWhatItAndEarlierSavesTookAndNothingLater() {
        var inFlight = ColumnsMarkedInFlight()
        inFlight.note([0, 2], of: .integer(1), stamp: 10)
        inFlight.note([1], of: .integer(2), stamp: 11)
        inFlight.note([3], of: .integer(1), stamp: 12)

        inFlight.forget(upTo: 11)
        #expect(inFlight.columns(of: .integer(1)) == [3])
        #expect(inFlight.columns(of: .integer(2)) == [])
        #expect(!inFlight.isEmpty)

        inFlight.forget(upTo: 12)
        #expect(inFlight.columns(of: .integer(1)) == [])
        #expect(inFlight.isEmpty)
    }

    @Test
    func aColumnTakenAgainStaysUntilTheLaterSaveCommits() {
        var inFlight = ColumnsMarkedInFlight()
        inFlight.note([0, 1], of: .string("a"), stamp: 5)
        inFlight.note([1], of: .string("a"), stamp: 6)
        #expect(inFlight.columns(of: .string("a")).sorted() == [0, 1])

        inFlight.forget(upTo: 5)
        #expect(inFlight.columns(of: .string("a")) == [1])
        inFlight.forget(upTo: 6)
        #expect(inFlight.isEmpty)
    }

    /// Marks noted out of stamp order (the store notes them in order, finishing any large save's
    /// encoding before the next write) are still forgotten by their own stamps.
    @Test
    func marksTakenOutOfStampOrderAreForgottenByTheirOwnStamps() {
        var inFlight = ColumnsMarkedInFlight()
        inFlight.note([0], of: .integer(1), stamp: 20)
        inFlight.note([0], of: .integer(2), stamp: 21)
        inFlight.note([0], of: .integer(3), stamp: 20)

        inFlight.forget(upTo: 20)
        #expect(inFlight.columns(of: .integer(1)) == [])
        #expect(inFlight.columns(of: .integer(3)) == [])
        #expect(inFlight.columns(of: .integer(2)) == [0])
    }

    /// A column noted again under an earlier stamp stays in flight until the later save commits.
    @Test
    func aColumnTakenAgainByAnEarlierSaveStaysUntilTheLaterOneCommits() {
        var inFlight = ColumnsMarkedInFlight()
        inFlight.note([2], of: .integer(7), stamp: 21)
        inFlight.note([2, 3], of: .integer(7), stamp: 20)

        inFlight.forget(upTo: 20)
        #expect(inFlight.columns(of: .integer(7)) == [2])
        inFlight.forget(upTo: 21)
        #expect(inFlight.isEmpty)
    }

    /// Marks taken out of stamp order after some saves committed, and after the lists of
    /// forgotten saves were dropped, still land among those waiting and are forgotten in turn.
    @Test
    func marksTakenOutOfOrderAfterCommitsAreForgottenInTurn() {
        var inFlight = ColumnsMarkedInFlight()
        for stamp in UInt64(1) ... 10 { inFlight.note([0], of: .integer(Int64(stamp)), stamp: stamp) }
        inFlight.forget(upTo: 7)  // more than half forgotten: the lists before are dropped
        inFlight.note([1], of: .integer(100), stamp: 8)
        inFlight.note([1], of: .integer(101), stamp: 9)

        inFlight.forget(upTo: 8)
        #expect(inFlight.columns(of: .integer(8)) == [])
        #expect(inFlight.columns(of: .integer(100)) == [])
        #expect(inFlight.columns(of: .integer(9)) == [0])
        #expect(inFlight.columns(of: .integer(101)) == [1])
        inFlight.forget(upTo: 10)
        #expect(inFlight.isEmpty)
    }

    /// Many saves of one row each, committing one after another, as a batch of single saves does:
    /// what is left after each commit is exactly the rows of the saves still uncommitted.
    @Test
    func manySavesCommittingInTurnLeaveExactlyTheUncommittedOnes() {
        var inFlight = ColumnsMarkedInFlight()
        for row in 0 ..< 1_000 { inFlight.note([row % 4], of: .integer(Int64(row)), stamp: UInt64(row)) }
        for committed in 0 ..< 1_000 {
            inFlight.forget(upTo: UInt64(committed))
            if committed.isMultiple(of: 97) {
                for row in [0, committed, committed + 1, 999] where row < 1_000 {
                    #expect(inFlight.columns(of: .integer(Int64(row))) == (row > committed ? [row % 4] : []))
                }
            }
        }
        #expect(inFlight.isEmpty)

        inFlight.note([1], of: .integer(5), stamp: 2_000)
        inFlight.removeAll()
        #expect(inFlight.isEmpty)
        #expect(inFlight.columns(of: .integer(5)) == [])
    }

    /// A merge asks about many rows in turn: what it is told follows every save noted and
    /// committed between two questions.
    @Test
    func whatARowHasInFlightFollowsEachSaveAndCommitBetweenQuestions() {
        var inFlight = ColumnsMarkedInFlight()
        inFlight.note([1], of: .integer(1), stamp: 1)
        inFlight.note([2], of: .integer(2), stamp: 2)
        #expect(inFlight.columns(of: .integer(1)) == [1])
        #expect(inFlight.columns(of: .integer(2)) == [2])

        inFlight.note([3, 1], of: .integer(1), stamp: 3)
        #expect(inFlight.columns(of: .integer(1)) == [1, 3])
        inFlight.forget(upTo: 2)
        #expect(inFlight.columns(of: .integer(1)) == [3, 1])
        #expect(inFlight.columns(of: .integer(2)) == [])
        inFlight.note([], of: .integer(3), stamp: 4)
        #expect(inFlight.columns(of: .integer(3)) == [])
        #expect(!inFlight.isEmpty)
    }
}
