import Foundation
@testable import QSData
import Testing

/// The writes of a batch cross from the main actor to the database queue in the order they were
/// made; a queue waiting for them wakes once enough are in, at once for a large save, and when the
/// body ends; once it has ended, the queue learns whether it threw.
struct WriteStreamTests {
    private func write(_ name: String, largeSave: LargeSaveEncoding? = nil) -> PendingWrite {
        PendingWrite(operation: name, source: .app, work: { _, _ in nil }, touches: nil,
                     ticket: QSWrite(operation: name, center: nil), largeSave: largeSave)
    }

    /// Takes from `stream` on another thread until it ends; returns what each take held.
    private func takeOnAnotherThread(_ stream: WriteStream) -> TakenWrites {
        let taken = TakenWrites()
        DispatchQueue.global().async {
            while let writes = stream.next() { taken.add(writes.map(\.operation)) }
            taken.finish()
        }
        return taken
    }

    @Test func theQueueTakesEveryWriteAddedSoFarAtOnceInOrder() {
        let stream = WriteStream()
        for name in ["a", "b", "c"] { stream.add(write(name)) }
        #expect(stream.next()?.map(\.operation) == ["a", "b", "c"])
        stream.add(write("d"))
        stream.close()
        #expect(stream.next()?.map(\.operation) == ["d"])
        #expect(stream.next() == nil)
        #expect(!stream.wasAbandoned)
    }

    @Test func aWaitingQueueGetsEveryWriteOnceEnoughAreIn() throws {
        let stream = WriteStream()
        let taken = takeOnAnotherThread(stream)
        let names = (0 ..< WriteStream.wakeAfterWrites).map { "w\($0)" }
        for name in names { stream.add(write(name)) }
        #expect(taken.wait(forCount: names.count), "the queue woke for the writes before the body ended")
        stream.close()
        #expect(taken.waitUntilFinished())
        #expect(taken.all.flatMap { $0 } == names)
    }

    @Test func aLargeSaveWakesAWaitingQueueAtOnce() throws {
        let stream = WriteStream()
        let taken = takeOnAnotherThread(stream)
        let encoding = LargeSaveEncoding(stamp: 1, skipsUnchanged: false, outsideReadsMerged: 0)
        stream.add(write("large", largeSave: encoding))
        #expect(taken.wait(forCount: 1))
        stream.close()
        #expect(taken.waitUntilFinished())
        #expect(taken.all.flatMap { $0 } == ["large"])
    }

    @Test func theEndWakesAWaitingQueueAndSaysWhetherTheBodyThrew() throws {
        let stream = WriteStream()
        let taken = takeOnAnotherThread(stream)
        stream.add(write("only"))
        stream.abandon()
        #expect(taken.waitUntilFinished())
        #expect(taken.all.flatMap { $0 } == ["only"])
        #expect(stream.wasAbandoned)
    }

    @Test func theRestIsEveryWriteNotTakenYetOnceTheBodyHasEnded() {
        let stream = WriteStream()
        stream.add(write("run"))
        #expect(stream.next()?.count == 1)
        DispatchQueue.global().async {
            stream.add(self.write("left"))
            stream.add(self.write("over"))
            stream.close()
        }
        #expect(stream.rest().map(\.operation) == ["left", "over"])
        #expect(stream.next() == nil)
    }
}

/// The writes another thread took from a stream, take by take.
private final class TakenWrites: @unchecked Sendable {
    private let condition = NSCondition()
    private var takes: [[String]] = []
    private var finished = false

    func add(_ take: [String]) {
        condition.lock()
        takes.append(take)
        condition.broadcast()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    var all: [[String]] {
        condition.lock()
        defer { condition.unlock() }
        return takes
    }

    /// Whether `count` writes were taken within a minute.
    func wait(forCount count: Int) -> Bool {
        wait { $0.takes.joined().count >= count }
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
