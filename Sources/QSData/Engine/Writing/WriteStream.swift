import Foundation

/// The writes of a batch (``QSStore/performBatch(_:)``, ``QSStore/performInBackground(_:)``),
/// handed to the database queue while the batch's body is still making them.
///
/// The batch's transaction is enqueued when the body begins. Once the queue reaches it, it runs
/// each write as it arrives and waits for the next, so that the queue writes while the main actor
/// encodes: a batch of many saves takes about as long as the longer of the two rather than their
/// sum. The body runs on the main actor without waiting for anything, so the queue's wait always
/// ends: when the body returns (``close()``) or throws (``abandon()``, and the transaction rolls
/// back).
///
/// Writes cross through a lock and a condition. Waking a thread costs more than running a small
/// write, so a waiting queue is woken once several writes are in, or once the first of them has
/// waited a while, or at once for a large save (whose chunks it takes as they are encoded).
final class WriteStream: @unchecked Sendable {
    /// A waiting queue is woken once this many writes are in.
    static let wakeAfterWrites = 32
    /// … or once the first write it has not been woken for is this old when the next comes.
    static let wakeAfterNanoseconds: UInt64 = 500_000

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var added: [PendingWrite] = []
    private var ended = false
    private var abandoned = false
    private var queueWaits = false
    private var firstUnwokenAt: UInt64 = 0

    /// Main actor: hands `write` to the queue, after those added before.
    func add(_ write: PendingWrite) {
        withCondition {
            added.append(write)
            guard queueWaits else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            if added.count == 1 { firstUnwokenAt = now }
            if added.count >= Self.wakeAfterWrites || write.largeSave != nil || now - firstUnwokenAt >= Self.wakeAfterNanoseconds {
                condition.signal()
            }
        }
    }

    /// Main actor: the body returned; the writes added are all the batch has, and it commits.
    func close() {
        end(abandoning: false)
    }

    /// Main actor: the body threw; the transaction rolls back, and what the writes changed in
    /// memory is put back.
    func abandon() {
        end(abandoning: true)
    }

    /// Database queue: the writes added since the last call, waiting for at least one; nil once
    /// the body has ended and every write has been taken.
    func next() -> [PendingWrite]? {
        withCondition {
            while added.isEmpty, !ended {
                queueWaits = true
                condition.wait()
                queueWaits = false
            }
            guard !added.isEmpty else { return nil }
            defer { added = [] }
            return added
        }
    }

    /// Database queue: every write not taken yet, once the body has ended (for a transaction that
    /// failed part way, whose remaining writes are not run but must be answered and put back).
    func rest() -> [PendingWrite] {
        var rest: [PendingWrite] = []
        while let more = next() { rest += more }
        return rest
    }

    /// Database queue, after ``next()`` returned nil: whether the body threw.
    var wasAbandoned: Bool {
        withCondition { abandoned }
    }

    private func end(abandoning: Bool) {
        withCondition {
            ended = true
            abandoned = abandoning
            condition.signal()
        }
    }

    private func withCondition<Result>(_ body: () throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }
}
