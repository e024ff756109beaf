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

    @Test func aLivingInstanceStaysThroughThePruningOfTheDead() {
        var found = InstancesFoundDeleted()
        let survivor = Held()
        var others: [Held] = (0 ..< 3).map { _ in Held() }
        found.remember([(id: .integer(0), instance: .weak(survivor))]
            + others.enumerated().map { (id: .integer(Int64($0.offset + 1)), instance: .weak($0.element)) })
        others.removeAll()
        found.pruneDead()
        let survivorIsKnown = found.contains(survivor, for: .integer(0))
        #expect(!found.isEmpty && survivorIsKnown)
    }

    @Test func aTypeWhoseInstancesFoundDeletedAllDiedIsNoLongerLookedAt() {
        var found = InstancesFoundDeleted()
        var held: [Held] = (0 ..< 3).map { _ in Held() }
        found.remember(held.enumerated().map { (id: .integer(Int64($0.offset)), instance: .weak($0.element)) })
        held.removeAll()
        #expect(!found.isEmpty)
        var looks = 0
        while !found.isEmpty, looks < 1_000 {
            _ = found.contains(Held(), for: .integer(0))
            looks += 1
        }
        #expect(found.isEmpty)
    }

    /// The queue's own prune of dead entries, which the main actor asks for, forgets them too.
    @Test func theQueuesPruneForgetsInstancesFoundDeletedThatDied() {
        let known = KnownRows(policy: .weak, tracksChanges: false, hasRelationships: false)
        var held: [Held] = [Held(), Held()]
        known.insert(.weak(held[0]), id: .integer(1))
        known.insert(.weak(held[1]), id: .integer(2))
        #expect(known.removeFoundDeleted([.integer(1), .integer(2)]).count == 2)
        #expect(known.hasInstancesFoundDeleted)
        held.removeAll()
        known.pruneDeadEntries()
        #expect(!known.hasInstancesFoundDeleted)
    }
}
