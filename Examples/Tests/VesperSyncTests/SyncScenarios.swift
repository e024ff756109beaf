import ExampleTestSupport
import Foundation
import Testing
import VesperCore
import VesperSync

/// Two clients ("day phone" and "night phone") and one server, end to end. Each scenario is a
/// function of the server, so the same story runs against the in-memory fake and the real
/// server (RealServerTests).
@MainActor
struct SyncScenarios {
    let harness: any SyncServerHarness
    let clock: TestClock
    let folder: TestFolder
    let username = "alice@example.com"
    let password = "correct horse"

    init(harness: any SyncServerHarness, clock: TestClock) throws {
        self.harness = harness
        self.clock = clock
        folder = try TestFolder()
    }

    /// Day creates the account, night logs in to it.
    func pair() async throws -> (day: TestClient, night: TestClient) {
        let day = try await TestClient.open("day", in: folder, transport: harness.transport, clock: clock)
        let night = try await TestClient.open("night", in: folder, transport: harness.transport, clock: clock)
        try await day.account.createAccount(server: harness.url, username: username, password: password)
        try await night.account.login(server: harness.url, username: username, password: password)
        return (day, night)
    }

    @discardableResult
    func sync(_ client: TestClient) async throws -> VSSyncReport {
        clock.advance(1)
        let report = try await client.account.syncNow()
        #expect(report.failures == [], "\(client.name): \(report.failures)")
        return report
    }

    func closeAll(_ clients: TestClient...) async throws {
        for client in clients { try await client.close() }
    }

    // MARK: Scenarios

    func noteTravelsWithOrderedTagsAttachmentMetadataAndBytes() async throws {
        let (day, night) = try await pair()
        let note = try await day.vesper.userDidCreateNote(text: "Pack for the trip", tagNames: ["Travel", "errands", "Alpha"])
        let attachment = try day.vesper.userDidAddAttachment(fileAt: try folder.file("map.png", SampleImages.png), to: note)
        let up = try await sync(day)
        #expect(up.notesUploaded == [note.uniqueID] && up.attachmentsUploaded == [attachment.uniqueID])
        #expect(try await day.vesper.countOfNotesToUpload() == 0)

        let down = try await sync(night)
        #expect(down.notesCreated == [note.uniqueID] && down.attachmentsDownloaded == [attachment.uniqueID])
        let copy = try await night.vesper.note(id: note.uniqueID)
        #expect(copy.text == "Pack for the trip" && copy.tags.map(\.name) == ["Travel", "errands", "Alpha"])
        #expect(copy.attachments == [attachment] && copy.thumbnailID == attachment.uniqueID)
        #expect(copy.creationDate == note.creationDate && copy.textModificationDate == note.textModificationDate)
        #expect(copy.modificationDate == nil)
        let bytes = try #require(night.vesper.attachmentStorage.file(for: attachment)).read()
        #expect(bytes == SampleImages.png)
        // Nothing bounces back: the next syncs move nothing.
        let again = try await sync(night)
        #expect(again.notesUploaded.isEmpty && again.notesCreated.isEmpty && again.notesUpdated.isEmpty)
        #expect(try await sync(day).notesUpdated.isEmpty)
        try await closeAll(day, night)
    }

    func caseOnlyTagRenameReachesTheOtherClient() async throws {
        let (day, night) = try await pair()
        let note = try await day.vesper.userDidCreateNote(text: "Gelato", tagNames: ["ice cream"])
        try await sync(day)
        try await sync(night)
        clock.advance()
        try day.vesper.userDidRenameTag("ice cream", to: "Ice Cream")
        let up = try await sync(day)
        #expect(up.tagsUploaded == 1)
        let down = try await sync(night)
        #expect(down.tagsDownloaded == ["Ice Cream"])
        #expect(try night.vesper.tag(named: "ice cream")?.name == "Ice Cream")
        #expect(try await night.vesper.note(id: note.uniqueID).tags.map(\.name) == ["Ice Cream"])
        try await closeAll(day, night)
    }

    func archiveOnOneAndTextEditOnTheOtherBothSurvive() async throws {
        let (day, night) = try await pair()
        let note = try await day.vesper.userDidCreateNote(text: "Draft")
        try await sync(day)
        try await sync(night)
        clock.advance()
        try day.vesper.userDidMarkAsArchived([note])
        clock.advance()
        try night.vesper.userDidUpdateText("Final text", of: try await night.vesper.note(id: note.uniqueID))
        try await sync(day)
        try await sync(night)
        try await sync(day)
        for client in [day, night] {
            let merged = try await client.vesper.note(id: note.uniqueID)
            #expect(merged.archived && merged.text == "Final text", "\(client.name)")
        }
        let server = try await serverNoteSet(harness, username: username, password: password)
        #expect(server[note.uniqueID] == NoteSummary(text: "Final text", archived: true, tags: [], attachments: []))
        try await closeAll(day, night)
    }

    func deleteOnOneRemovesItOnTheOtherAndALateUploadNeverResurrectsIt() async throws {
        let (day, night) = try await pair()
        let doomed = try await day.vesper.userDidCreateNote(text: "Doomed", tagNames: ["Old"])
        let kept = try await day.vesper.userDidCreateNote(text: "Kept")
        try await sync(day)
        try await sync(night)
        // Night's copy as an old device would send it, edited after the deletion.
        clock.advance()
        let nightCopy = try await night.vesper.note(id: doomed.uniqueID)
        try night.vesper.userDidUpdateText("Edited late", of: nightCopy)
        let lateUpload = try VSSyncNote(nightCopy).json()

        try await day.vesper.userDidDeleteNotes([doomed])
        let up = try await sync(day)
        #expect(up.deletionsUploaded == [doomed.uniqueID])
        #expect(try await day.vesper.deletedNoteIDs() == [])

        // The late upload, straight to the server: dropped there.
        let caller = VSAPICaller(serverURL: harness.url, transport: harness.transport)
        let authenticator = CredentialsAuthenticator(caller: caller, username: username, password: password)
        caller.authenticator = authenticator
        let late = await caller.uploadNotes([lateUpload], syncToken: nil)
        #expect(late.succeeded)
        #expect(!(late.json?.array ?? []).contains { $0["noteID"]?.integer == doomed.uniqueID })

        let down = try await sync(night)
        #expect(down.deletionsDownloaded == [doomed.uniqueID])
        #expect(!down.notesUploaded.contains(doomed.uniqueID))
        #expect(try await night.vesper.noteSet().keys.sorted() == [kept.uniqueID])
        #expect(try await night.vesper.deletedNoteIDs() == [])
        try await sync(day)
        #expect(try await day.noteSet().keys.sorted() == [kept.uniqueID])
        #expect(try await serverNoteSet(harness, username: username, password: password).keys.sorted() == [kept.uniqueID])
        try await closeAll(day, night)
    }

    func anExpiredTokenMakesTheClientLogInAgainOnce() async throws {
        let (day, night) = try await pair()
        _ = try await day.vesper.userDidCreateNote(text: "Before expiry")
        try await sync(day)
        try await harness.expireTokens()
        _ = try await day.vesper.userDidCreateNote(text: "After expiry")
        let report = try await sync(day)
        #expect(report.notesUploaded.count == 1)
        try await sync(night)
        #expect(try await night.noteSet().values.map(\.text).sorted() == ["After expiry", "Before expiry"])
        try await closeAll(day, night)
    }

    /// Convergence: random edits, archives, tag changes and deletes on two clients with syncs in
    /// between; after two rounds of syncs both clients and the server hold identical notes.
    func randomEditsConverge(seed: UInt64, steps: Int) async throws {
        var random = SeededGenerator(seed: seed)
        let (day, night) = try await pair()
        let clients = [day, night]
        let tagNames = ["Home", "work", "Travel", "Ideas", "errands"]
        for step in 0..<steps {
            clock.advance(1)
            let client = clients[Int.random(in: 0...1, using: &random)]
            let notes = try await client.vesper.allNotes()
            let action = notes.isEmpty ? 0 : Int.random(in: 0...7, using: &random)
            let note = notes.isEmpty ? nil : notes[Int.random(in: 0..<notes.count, using: &random)]
            switch (action, note) {
            case (0, _), (1, nil):
                _ = try await client.vesper.userDidCreateNote(
                    text: "Note \(step) from \(client.name)", tagNames: Array(tagNames.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random))))
            case (1, let note?), (2, let note?):
                try client.vesper.userDidUpdateText("Edit \(step) on \(client.name)", of: note)
            case (3, let note?):
                note.archived ? try client.vesper.userDidMarkAsUnarchived([note]) : try client.vesper.userDidMarkAsArchived([note])
            case (4, let note?):
                try client.vesper.userDidUpdateTags(Array(tagNames.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))), of: note)
            case (5, let note?):
                try await client.vesper.userDidDeleteNotes([note])
            case (6, _):
                if let tag = try client.vesper.tags().randomElement(using: &random) {
                    let flipped = tag.name.first?.isUppercase == true ? tag.name.lowercased() : tag.name.capitalized
                    try client.vesper.userDidRenameTag(tag.name, to: flipped)
                }
            default:
                try await sync(client)
            }
            try await client.vesper.flush()
        }
        for _ in 0..<2 {
            try await sync(day)
            try await sync(night)
        }
        let daySet = try await day.noteSet()
        let nightSet = try await night.noteSet()
        let serverSet = try await serverNoteSet(harness, username: username, password: password)
        #expect(daySet == nightSet)
        #expect(daySet == serverSet)
        #expect(!daySet.isEmpty)
        let dayTags = try day.vesper.tags().map(\.name)
        let nightTags = try night.vesper.tags().map(\.name)
        #expect(dayTags == nightTags)
        try await closeAll(day, night)
    }
}

extension VSDataController {
    func noteSet() async throws -> [Int64: NoteSummary] {
        Dictionary(uniqueKeysWithValues: try await allNotes().map { ($0.uniqueID, NoteSummary($0)) })
    }
}

/// The scenarios against the in-memory fake server.
@MainActor
@Suite struct FakeServerSyncTests {
    func scenarios() throws -> SyncScenarios {
        let clock = TestClock()
        return try SyncScenarios(harness: FakeHarness(server: FakeVesperServer(clock: clock)), clock: clock)
    }

    @Test func noteTravelsWithOrderedTagsAttachmentMetadataAndBytes() async throws {
        try await scenarios().noteTravelsWithOrderedTagsAttachmentMetadataAndBytes()
    }

    @Test func caseOnlyTagRenameReachesTheOtherClient() async throws {
        try await scenarios().caseOnlyTagRenameReachesTheOtherClient()
    }

    @Test func archiveOnOneAndTextEditOnTheOtherBothSurvive() async throws {
        try await scenarios().archiveOnOneAndTextEditOnTheOtherBothSurvive()
    }

    @Test func deleteOnOneRemovesItOnTheOtherAndALateUploadNeverResurrectsIt() async throws {
        try await scenarios().deleteOnOneRemovesItOnTheOtherAndALateUploadNeverResurrectsIt()
    }

    @Test func anExpiredTokenMakesTheClientLogInAgainOnce() async throws {
        try await scenarios().anExpiredTokenMakesTheClientLogInAgainOnce()
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomEditsConverge(seed: UInt64) async throws {
        try await scenarios().randomEditsConverge(seed: seed, steps: 60)
    }
}
