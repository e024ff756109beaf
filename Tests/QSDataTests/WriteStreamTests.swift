import Foundation
@testable import QSData
import Testing

/// The writes of a batch cross from the main actor to the database queue in the order they were
/// made, each with the notes made before it; a queue waiting for them takes them without being
/// woken, and the end of the body wakes it and says whether the body threw.
struct WriteStreamTests {
    private func write(_ name: String) -> PendingWrite {
        PendingWrite(operation: name, source: .app, work: { _, _ in nil }, touches: nil, ticket: QSWrite(operation: name, center: nil))
    }

    private func names(_ entries: [WriteStream.Entry]?) -> [String]? {
        entries?.map(\.write.operation)
    }

    /// Takes from `stream` on another thread, as the queue does, until it ends.
    private func takeOnAnotherThread(_ stream: WriteStream) -> TakenWrites {
        let taken = TakenWrites()
        DispatchQueue.global().async {
            while let entries = stream.next() { taken.add(entries.map(\.write.operation)) }
            taken.finish()
        }
        return taken
    }

    @Test func theQueueTakesEveryWriteAddedSoFarAtOnceInOrderWithItsNotes() {
        let stream = WriteStream()
        stream.add(write("a"), notesBefore: nil)
        stream.add(write("b"), notesBefore: [("Tag", KnownRowsNotes())])
        stream.add(write("c"), notesBefore: nil)
        let taken = stream.next()
        #expect(names(taken) == ["a", "b", "c"])
        #expect(taken?.map { $0.notesBefore?.map(\.0) } == [nil, ["Tag"], nil])
        stream.add(write("d"), notesBefore: nil)
        stream.close()
        #expect(names(stream.next()) == ["d"])
        #expect(stream.next() == nil)
        #expect(!stream.wasAbandoned)
    }

    @Test func aWaitingQueueTakesWritesAddedWhileItWaitsWithoutBeingWoken() {
        let stream = WriteStream()
        let taken = takeOnAnotherThread(stream)
        for name in ["x", "y", "z"] { stream.add(write(name), notesBefore: nil) }
        #expect(taken.wait(forCount: 3), "the queue took the writes before the body ended")
        stream.close()
        #expect(taken.waitUntilFinished())
        #expect(taken.all == ["x", "y", "z"])
    }

    @Test func aWaitingQueueSeesTheEndAndWhetherTheBodyThrew() {
        let stream = WriteStream()
        let taken = takeOnAnotherThread(stream)
        stream.add(write("only"), notesBefore: nil)
        stream.abandon()
        #expect(taken.waitUntilFinished())
        // Taken before the body threw, or left for the rest; never both, never lost.
        #expect(taken.all + (names(stream.rest()) ?? []) == ["only"])
        #expect(stream.wasAbandoned)
    }

    @Test func writesLeftWhenTheBodyThrowsAreNotHandedOutToRunButAreTheRest() {
        let stream = WriteStream()
        stream.add(write("a"), notesBefore: nil)
        stream.add(write("b"), notesBefore: nil)
        stream.abandon()
        #expect(stream.next() == nil)
        #expect(names(stream.rest()) == ["a", "b"])
        #expect(stream.wasAbandoned)
    }

    @Test func theRestIsEveryWriteNotTakenYetOnceTheBodyHasEnded() {
        let stream = WriteStream()
        stream.add(write("run"), notesBefore: nil)
        #expect(stream.next()?.count == 1)
        let later = [write("left"), write("over")]
        DispatchQueue.global().async {
            for write in later { stream.add(write, notesBefore: nil) }
            stream.close()
        }
        #expect(names(stream.rest()) == ["left", "over"])
        #expect(stream.next() == nil)
    }
}

/// The names of the writes another thread took from a stream, in order.
private final class TakenWrites: @unchecked Sendable {
    private let condition = NSCondition()
    private var names: [String] = []
    private var finished = false

    func add(_ taken: [String]) {
        condition.lock()
        names += taken
        condition.broadcast()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    var all: [String] {
        condition.lock()
        defer { condition.unlock() }
        return names
    }

    /// Whether `count` writes were taken within a minute.
    func wait(forCount count: Int) -> Bool {
        wait { $0.names.count >= count }
    }

    /// Whether the taking thread saw the stream end within a minute.
    func waitUntilFinished() -> Bool {
        wait { $0.finished }
    }

    private func wait(until done: (TakenWrites) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 60)
        condition.lock()
        defer { condition.unlock() }
        while !done(self) {
            if !condition.wait(until: deadline) { return done(self) }
        }
        return true
    }
}
