import ExampleTestSupport
import Foundation
import Testing
import VesperCore
import VesperSync

/// A library of 10,000 notes through the real client and the real server: one device uploads it
/// on its first sync, in batches; another downloads it on its own first sync; both end with the
/// same notes. The durations are printed (measured, never asserted).
@MainActor
@Suite struct LargeSyncTests {
    @Test func aFirstSyncOfTenThousandNotesUploadsThemAllAndAnotherDeviceDownloadsThemAll() async throws {
        let harness = try await RealHarness.start()
        do {
            let scenarios = try SyncScenarios(harness: harness, clock: TestClock(start: Date()))
            let (day, night) = try await scenarios.pair()
            let drafts = (0..<10_000).map { index in
                (text: "Note \(index): " + String(repeating: "lorem ipsum ", count: 20), tagNames: ["Work", "Home"])
            }
            _ = try await day.vesper.userDidCreateNotes(drafts)
            let clock = ContinuousClock()

            let uploadStart = clock.now
            let up = try await scenarios.sync(day)
            let upload = clock.now - uploadStart
            #expect(up.notesUploaded.count == 10_000)
            #expect(up.notesCreated.isEmpty && up.notesUpdated.isEmpty)
            #expect(try await day.vesper.countOfNotesToUpload() == 0)

            let downloadStart = clock.now
            let down = try await scenarios.sync(night)
            let download = clock.now - downloadStart
            #expect(down.notesCreated.count == 10_000)
            let dayNotes = try await day.noteSet()
            let nightNotes = try await night.noteSet()
            #expect(nightNotes == dayNotes)
            print("CLIENT FIRST SYNC: 10,000 notes up from one device in \(upload), down to another in \(download)")
            try await scenarios.closeAll(day, night)
        } catch {
            try? await harness.stop()
            throw error
        }
        try await harness.stop()
    }
}
