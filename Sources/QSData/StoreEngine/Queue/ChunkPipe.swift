import Foundation

/// Carries a large save from the main actor to the database queue one chunk at a time.
///
/// Encoding 100,000 objects takes tens of milliseconds; done in one go it would stall the main
/// actor. Instead the write is enqueued at once (so later fetches still see it) and waits on
/// this pipe, while the main actor encodes a chunk per turn of its run loop and puts it here.
final class ChunkPipe: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [[SaveGroup]] = []
    private var isFinished = false
    private var failure: (any Error)?

    /// Main actor: adds the next chunk.
    func put(_ chunk: [SaveGroup]) {
        condition.lock()
        chunks.append(chunk)
        condition.signal()
        condition.unlock()
    }

    /// Main actor: no more chunks will come.
    func finish() {
        condition.lock()
        isFinished = true
        condition.signal()
        condition.unlock()
    }

    /// Main actor: encoding failed; the queue rolls the write back.
    func fail(_ error: any Error) {
        condition.lock()
        failure = error
        condition.signal()
        condition.unlock()
    }

    /// Database queue: the next chunk, waiting for it; nil once all have been taken.
    func next() throws -> [SaveGroup]? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !isFinished && failure == nil {
            condition.wait()
        }
        if let failure { throw failure }
        if chunks.isEmpty { return nil }
        return chunks.removeFirst()
    }
}
