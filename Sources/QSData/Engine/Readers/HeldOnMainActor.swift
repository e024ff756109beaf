import Dispatch

/// Finds, for a read on a reader connection, the instances the main actor holds for some rows,
/// so that a fetched parent is given the child instances the app already has.
///
/// The reader's thread waits while the main actor looks: one short turn per relationship a fetch
/// loads, never per row. Nothing the main actor does waits for a reader, so this cannot deadlock.
struct HeldOnMainActor: Sendable {
    /// The instances the main actor holds for `ids` of `binding`'s type, in order (nil where none).
    func instances(of binding: any AnyTypeBinding, for ids: [QSAnyID]) -> [Instance?] {
        let answer = LockedState<ObjectsInTransit<[Instance?]>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        Task { @MainActor in
            let held = binding.heldInstances(for: ids)
            answer.withLock { $0 = ObjectsInTransit(value: held) }
            answered.signal()
        }
        answered.wait()
        return answer.withLock { $0?.value } ?? Array(repeating: nil, count: ids.count)
    }
}
