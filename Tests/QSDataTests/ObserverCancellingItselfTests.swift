import Foundation
import QSData
import Testing

/// An observer may cancel its own observation while it is being called (a screen that waits for
/// one change, then stops listening): it hears nothing more, and the others go on hearing.
@MainActor
@Suite struct ObserverCancellingItselfTests {
    @Test func aChangeObserverThatCancelsItselfWhileCalledHearsNoMore() async throws {
        let store = try await Fixtures.openStore()
        var heardByTheOneThatStops = 0
        var heardByTheOther = 0
        var stopping: QSObservation?
        stopping = store.observeChanges { _ in
            heardByTheOneThatStops += 1
            stopping?.cancel()
        }
        let other = store.observeChanges { _ in heardByTheOther += 1 }
        try await store.save(Note(uniqueID: 1, text: "one")).committed()
        try await store.save(Note(uniqueID: 2, text: "two")).committed()
        #expect(heardByTheOneThatStops == 1)
        #expect(heardByTheOther == 2)
        other.cancel()
    }

    @Test func anErrorObserverThatCancelsItselfWhileCalledHearsNoMore() async throws {
        let store = try await Fixtures.openStore()
        try await store.save(Tag(name: "Unique")).committed()
        var heardByTheOneThatStops = 0
        var heardByTheOther = 0
        var stopping: QSObservation?
        stopping = store.observeWriteErrors { _ in
            heardByTheOneThatStops += 1
            stopping?.cancel()
        }
        let other = store.observeWriteErrors { _ in heardByTheOther += 1 }
        for name in ["First", "Second"] {
            let clash = Tag(name: name)
            clash.name = "Unique"
            let write = try store.save(clash)
            await #expect(throws: QSWriteError.self) { try await write.committed() }
        }
        #expect(heardByTheOneThatStops == 1)
        #expect(heardByTheOther == 2)
        other.cancel()
    }
}
