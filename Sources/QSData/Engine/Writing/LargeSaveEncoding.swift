import Foundation

/// A large save, encoded on the main actor a few chunks per turn and written on the database
/// queue chunk by chunk as they come, in one transaction: the queue writes one chunk while the
/// main actor encodes the next, so the save takes about as long as the longer of the two rather
/// than their sum.
///
/// The chunks cross through a lock and a condition: the main actor adds each one as it is
/// encoded and never waits; the save's write, on the queue, takes them in order and waits for
/// the next while the main actor works on it. The main actor wakes it once a turn, not once a
/// chunk: a chunk of objects that cost little to encode takes less time than waking a thread.
/// That is one of the two places the queue waits for the main actor (the other is a batch's
/// next write, see ``WriteStream``), and nothing runs on the queue meanwhile: work handed over
/// after the save is behind its write. If the write fails, the
/// queue tells the main actor to stop and waits until it has, so that ``touches`` are complete
/// before the rollback reads them; if the batch the save is in throws on the main actor, the
/// chunks not yet encoded are cancelled there.
final class LargeSaveEncoding: @unchecked Sendable {
    /// Main actor only: the save's batch, kept between turns so each chunk extends the same
    /// storage (and the same set of written children) instead of copying it.
    var batch: SaveBatch
    /// What the save changed in memory, put back if its write rolls back (locks on its own).
    let touches: MemoryTouches
    /// Main actor only: where the next chunk begins in the saved objects.
    var nextStart = 0
    /// Main actor only: encodes every chunk left, at once (see ``encodeRestNow()``).
    var encodeRest: (@MainActor () -> Void)?

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var chunks: [[SaveGroup]] = []
    private var taken = 0
    private var encodingEnded = false
    private var failure: (any Error)?
    private var stopAsked = false

    init(stamp: UInt64, skipsUnchanged: Bool, outsideReadsMerged: UInt64) {
        batch = SaveBatch(stamp: stamp, skipsUnchanged: skipsUnchanged, outsideReadsMerged: outsideReadsMerged)
        touches = MemoryTouches(stamp: stamp)
    }

    /// Main actor: adds the groups of the chunk just encoded, for the queue to write. A queue
    /// busy with earlier chunks takes it when it gets there; one waiting for it wakes at
    /// ``wakeWriter()`` (or when the encoding ends).
    func add(_ groups: [SaveGroup]) {
        condition.withLock {
            chunks.append(groups)
        }
    }

    /// Main actor: wakes the queue if it waits for the chunks added so far.
    func wakeWriter() {
        condition.withLock { condition.signal() }
    }

    /// Main actor: the last chunk is in.
    func finish() {
        end(failure: nil)
    }

    /// Main actor: encoding a chunk failed; the write throws `error` and rolls back.
    func fail(_ error: any Error) {
        end(failure: error)
    }

    /// Main actor: whether the last chunk is in (or the encoding failed or stopped).
    var hasEnded: Bool {
        condition.withLock { encodingEnded }
    }

    /// Main actor: encodes the chunks left now instead of in later turns, because another write
    /// is about to change memory and must come after this save.
    @MainActor func encodeRestNow() {
        encodeRest?()  // ends the encoding, which lets the closure go
    }

    /// Main actor, before each chunk: whether the encoding is to stop (its write failed, or the
    /// batch it was in was abandoned). A caller that stops ends the encoding with ``fail(_:)``,
    /// so that a write still taking chunks throws rather than go on as if the save were whole.
    var shouldStop: Bool {
        condition.withLock { stopAsked }
    }

    /// Main actor: the batch the save was in threw, and its transaction is about to roll back: no
    /// chunk after the ones encoded so far will be. (On the main actor no chunk is being encoded
    /// right now, so there is nothing to wait for.)
    func cancelEncoding() {
        condition.withLock { stopAsked = true }
    }

    /// Database queue: the next chunk, waiting for the main actor to encode it; nil after the
    /// last. Throws the encoding's failure.
    func nextChunk() throws -> [SaveGroup]? {
        try condition.withLock {
            while taken == chunks.count, !encodingEnded { condition.wait() }
            if taken < chunks.count {
                // Taken out, so that a written chunk's rows are freed as the save goes on.
                let chunk = chunks[taken]
                chunks[taken] = []
                taken += 1
                return chunk
            }
            if let failure { throw failure }
            return nil
        }
    }

    /// Database queue: the write failed. Waits until the main actor has stopped encoding (it
    /// looks before each chunk), so that no instance is touched after the rollback reads what was.
    func stopEncoding() {
        condition.withLock {
            stopAsked = true
            while !encodingEnded { condition.wait() }
        }
    }

    private func end(failure: (any Error)?) {
        condition.withLock {
            self.failure = failure
            encodingEnded = true
            condition.broadcast()
        }
    }
}
