@testable import QSData
import Testing

/// The queue's memory of instances held for rows another writer deleted, which a save of one of
/// them reports as inserted again: an entry stays while its instance lives, and the entries of
/// instances that died are dropped as saves look, so that a type stops being looked at.
@Suite struct InstancesFoundDeletedTests {
    private final class Held {}

    @Test func anInstanceFoundDeletedIsKnownByItselfAlone() {
        var found = InstancesFoundDeleted()
        let held = Held()
        found.remember([(id: .integer(1), instance: .weak(held))])
        let itself = found.contains(held, for: .integer(1))
        let another = found.contains(Held(), for: .integer(1))
        let underAnotherID = found.contains(held, for: .integer(2))
        #expect(itself && !another && !underAnotherID)
    }

    @Test func theEntriesOfInstancesThatDiedGoAsSavesLook() {
        var found = InstancesFoundDeleted()
        let survivor = Held()
        var others: [Held] = (0 ..< 3).map { _ in Held() }
        found.remember([(id: .integer(0), instance: .weak(survivor))]
            + others.enumerated().map { (id: .integer(Int64($0.offset + 1)), instance: .weak($0.element)) })
        others.removeAll()
        for _ in 0 ..< 64 { _ = found.contains(survivor, for: .integer(5)) }
        let survivorIsKnown = found.contains(survivor, for: .integer(0))
        #expect(!found.isEmpty && survivorIsKnown)
    }

    @Test func aTypeWhoseInstancesFoundDeletedAllDiedIsNoLongerLookedAt() {
        var found = InstancesFoundDeleted()
        var held: [Held] = (0 ..< 3).map { _ in Held() }
        found.remember(held.enumerated().map { (id: .integer(Int64($0.offset)), instance: .weak($0.element)) })
        held.removeAll()
        #expect(!found.isEmpty)
        for _ in 0 ..< 64 { _ = found.contains(Held(), for: .integer(0)) }
        #expect(found.isEmpty)
    }
}
