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
/// write, so adding a write wakes no one: a waiting queue looks again after a millisecond, then
/// after twice as long each time it finds nothing, up to ``longestLook`` (a body busy with other
/// work between its writes costs a few wake-ups a second, not a thousand), and takes whatever has
/// come. Only the end of the body wakes it.
final class WriteStream: @unchecked Sendable {
    /// One write of the batch, with what the main actor's instance tables noted since the write
    /// before it: the queue's tables follow those notes before the write runs, as they would had
    /// the write been enqueued on its own.
    struct Entry {
        let notesBefore: [(String, KnownRowsNotes)]?
        let write: PendingWrite
    }

    /// How long a waiting queue sleeps before it first looks for writes again, and at the most.
    static let firstLook: TimeInterval = 0.001
    static let longestLook: TimeInterval = 0.016

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var added: [Entry] = []
    private var ended = false
    private var abandoned = false

    /// Main actor: hands `write` to the queue, after those added before.
    func add(_ write: PendingWrite, notesBefore: [(String, KnownRowsNotes)]?) {
        condition.withLock {
            added.append(Entry(notesBefore: notesBefore, write: write))
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
    /// the body has returned and every write has been taken, or as soon as it has thrown (the
    /// writes left are not to be run: see ``rest()``).
    func next() -> [Entry]? {
        condition.withLock {
            var pause = Self.firstLook
            while added.isEmpty, !ended {
                _ = condition.wait(until: Date(timeIntervalSinceNow: pause))
                pause = min(pause * 2, Self.longestLook)
            }
            guard !added.isEmpty, !abandoned else { return nil }
            defer { added = [] }
            return added
        }
    }

    /// Database queue: every write not taken yet, once the body has ended: those of a body that
    /// threw, or that come after a write that failed. They are not run, but are answered and put
    /// back with the others.
    func rest() -> [Entry] {
        condition.withLock {
            while !ended { condition.wait() }
            defer { added = [] }
            return added
        }
    }

    /// Database queue, after ``next()`` returned nil: whether the body threw.
    var wasAbandoned: Bool {
        condition.withLock { abandoned }
    }

    private func end(abandoning: Bool) {
        condition.withLock {
            ended = true
            abandoned = abandoning
            condition.signal()
        }
    }
}
