/// A large save, encoded on the main actor a chunk per turn, and then written on the database
/// queue in one transaction.
///
/// It is handed over, not shared: the main actor fills it while ``QueueEntrance`` holds the
/// save's write back, and the queue reads it only once the last chunk is in and the entrance has
/// let the write go. The two never touch it at the same time, and the queue never waits for it.
final class LargeSaveEncoding: @unchecked Sendable {
    /// The save's batch, kept between turns so each chunk extends the same storage (and the same
    /// set of written children) instead of copying it.
    var batch = SaveBatch()
    /// What the save changed in memory, put back if its write rolls back.
    let touches = MemoryTouches()
    private var chunks: [[SaveGroup]] = []
    private var failure: (any Error)?

    /// Main actor: adds the groups of the chunk just encoded.
    func add(_ groups: [SaveGroup]) {
        chunks.append(groups)
    }

    /// Main actor: encoding a chunk failed; the write throws `error` and rolls back.
    func fail(_ error: any Error) {
        failure = error
    }

    /// Database queue: the encoded chunks, in order, or the encoding's failure.
    func encodedChunks() throws -> [[SaveGroup]] {
        if let failure { throw failure }
        return chunks
    }
}
