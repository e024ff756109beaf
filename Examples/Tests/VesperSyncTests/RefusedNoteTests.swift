import ExampleTestSupport
import Foundation
import Testing
@testable import VesperCore
import VesperServerKit
@testable import VesperSync

/// One note the server refuses never holds the others back: it is set aside, named in the sync
/// report, not sent again until it is edited; every other note uploads. Uploads are batched by
/// bytes as well as by count.
@MainActor
@Suite(.serialized) struct RefusedNoteTests {
    static let username = "alice@example.com"
    static let password = "correct horse"

    /// Runs `body` with a real server (configured by `configure`) and a signed-in client whose
    /// requests are counted.
    func withClient(
        _ configure: (inout VesperServerConfiguration) -> Void = { _ in },
        _ body: (RealHarness, TestClient, CountingTransport, TestClock) async throws -> Void
    ) async throws {
        let harness = try await RealHarness.start(configure)
        let folder = try TestFolder()
        let clock = TestClock(start: Date())
        let counting = CountingTransport(harness.transport)
        let client = try await TestClient.open("phone", in: folder, transport: counting, clock: clock)
        do {
            try await client.account.createAccount(server: harness.url, username: Self.username, password: Self.password)
            try await body(harness, client, counting, clock)
        } catch {
            try? await client.close()
            try? await harness.stop()
            throw error
        }
        try await client.close()
        try await harness.stop()
    }

    @Test func aNoteWhosePictureClaimsAnImpossibleSizeIsSetAsideUntilEditedAndTheOthersUpload() async throws {
        try await withClient { harness, phone, _, clock in
            let notes = try await phone.vesper.userDidCreateNotes((1...5).map { (text: "Note \($0)", tagNames: []) })
            // As a database from before `vesper attach` checked sizes could hold it.
            let bad = notes[2]
            let pictureID = "6F9619FF-8B86-4D01-B42D-00C04FC964FF"
            try phone.vesper.attachmentStorage.store(SampleImages.png, uniqueID: pictureID)
            bad.attachments = [VSAttachment(uniqueID: pictureID, mimeType: "image/png", width: 2_000_000, height: 1)]
            bad.attachmentsModificationDate = clock.date
            bad.modificationDate = clock.date
            try phone.vesper.store.save(bad)
            let good = Set(notes.map(\.uniqueID)).subtracting([bad.uniqueID])

            let first = try await phone.account.syncNow()
            #expect(first.failures == [])
            #expect(Set(first.notesUploaded) == good)
            #expect(first.notesSetAside.map(\.noteID) == [bad.uniqueID])
            #expect(first.notesSetAside.first?.reason.hasPrefix("the server answered HTTP 400") == true)
            #expect(Set(try await serverNoteSet(harness, username: Self.username, password: Self.password).keys) == good)
            #expect(phone.account.state?.setAsideNotes?.map(\.noteID) == [bad.uniqueID])

            // Not edited: not sent again, still reported.
            let second = try await phone.account.syncNow()
            #expect(second.notesUploaded == [])
            #expect(second.notesSetAside.map(\.noteID) == [bad.uniqueID])

            // Edited (the size corrected): sent, and no longer set aside.
            clock.advance(5)
            bad.attachments = [VSAttachment(uniqueID: pictureID, mimeType: "image/png", width: 1, height: 1)]
            bad.attachmentsModificationDate = clock.date
            bad.modificationDate = clock.date
            try phone.vesper.store.save(bad)
            let third = try await phone.account.syncNow()
            #expect(third.notesUploaded == [bad.uniqueID])
            #expect(third.notesSetAside == [])
            #expect(phone.account.state?.setAsideNotes == nil)
            #expect(try await serverNoteSet(harness, username: Self.username, password: Self.password).count == 5)
        }
    }

    /// A database from an older version can hold an attachment ID that is a path; the server
    /// refuses that note, and the five good ones still go up.
    @Test func aNoteWhoseStoredAttachmentIDIsAPathIsSetAsideAndTheOthersUpload() async throws {
        try await withClient { harness, phone, _, clock in
            let notes = try await phone.vesper.userDidCreateNotes((1...6).map { (text: "Note \($0)", tagNames: []) })
            let bad = notes[0]
            bad.attachments = [VSAttachment(uniqueID: "../../victim/important.txt", mimeType: "image/png", width: 1, height: 1)]
            bad.attachmentsModificationDate = clock.date
            bad.modificationDate = clock.date
            try phone.vesper.store.save(bad)
            let report = try await phone.account.syncNow()
            #expect(!report.failures.contains { $0.hasPrefix("notes") }, "\(report.failures)")
            #expect(Set(report.notesUploaded) == Set(notes.dropFirst().map(\.uniqueID)))
            #expect(report.notesSetAside.map(\.noteID) == [bad.uniqueID])
            #expect(try await serverNoteSet(harness, username: Self.username, password: Self.password).count == 5)
        }
    }

    @Test func aSetAsideNoteSurvivesARestartOfTheClient() async throws {
        let state = VSAccountState(server: URL(fileURLWithPath: "/"), username: "a@b.c", password: "p")
        var withSetAside = state
        withSetAside.setAsideNotes = [VSSetAsideNote(noteID: 5_000, modificationDate: 1_700_000_000.123, reason: "refused")]
        let folder = try TestFolder()
        let file = VSAccountFile(url: folder.url.appendingPathComponent("account.json"))
        try file.save(withSetAside)
        #expect(try file.load() == withSetAside)
        // A file written before notes could be set aside still reads.
        try file.save(state)
        #expect(try file.load()?.setAsideNotes == nil)
    }

    @Test func uploadsAreBatchedByBytesSoThatNotesTheServerTakesAloneAllGoUp() async throws {
        try await withClient({ $0.maxBodyBytes = 300_000 }) { harness, phone, counting, _ in
            phone.account.uploadLimits = VSUploadLimits(notes: 1_000, bytes: 200_000)
            let big = String(repeating: "x", count: 90_000)
            _ = try await phone.vesper.userDidCreateNotes((1...5).map { (text: "\($0) \(big)", tagNames: []) })
            counting.reset()
            let report = try await phone.account.syncNow()
            #expect(report.failures == [])
            #expect(report.notesUploaded.count == 5)
            #expect(report.notesSetAside == [])
            // 2 + 2 + 1 notes of about 90 KB each, none refused.
            #expect(counting.count(of: "/api/notes") == 3)
            #expect(try await serverNoteSet(harness, username: Self.username, password: Self.password).count == 5)
        }
    }

    @Test func aNoteLargerThanTheServerTakesIsSetAsideAndTheOthersUpload() async throws {
        try await withClient({ $0.maxBodyBytes = 300_000 }) { harness, phone, _, _ in
            let notes = try await phone.vesper.userDidCreateNotes([
                (text: "small one", tagNames: []), (text: String(repeating: "y", count: 400_000), tagNames: []),
                (text: "small two", tagNames: []),
            ])
            let report = try await phone.account.syncNow()
            #expect(report.failures == [])
            #expect(Set(report.notesUploaded) == [notes[0].uniqueID, notes[2].uniqueID])
            #expect(report.notesSetAside.map(\.noteID) == [notes[1].uniqueID])
            #expect(report.notesSetAside.first?.reason.hasPrefix("the server answered HTTP 413") == true)
            #expect(try await serverNoteSet(harness, username: Self.username, password: Self.password).count == 2)
        }
    }

    @Test(arguments: [
        ([10, 10, 10, 10, 10], VSUploadLimits(notes: 2, bytes: 1_000), [0..<2, 2..<4, 4..<5]),
        ([60, 60, 60], VSUploadLimits(notes: 100, bytes: 100), [0..<1, 1..<2, 2..<3]),
        ([500, 10, 10], VSUploadLimits(notes: 100, bytes: 100), [0..<1, 1..<3]),
        ([40, 40, 40, 40], VSUploadLimits(notes: 100, bytes: 100), [0..<2, 2..<4]),
        ([], VSUploadLimits(notes: 100, bytes: 100), []),
    ])
    func batchesStayWithinBothLimitsAndAnOversizedNoteGoesAlone(sizes: [Int], limits: VSUploadLimits, expected: [Range<Int>]) {
        #expect(VSUploadBatches.ranges(sizes: sizes, limits: limits) == expected)
    }
}

/// Passes requests on and counts them by path.
final class CountingTransport: VSHTTPTransport, @unchecked Sendable {  // the counts are behind the lock
    private let inner: any VSHTTPTransport
    private let lock = NSLock()
    private var paths: [String] = []

    init(_ inner: any VSHTTPTransport) {
        self.inner = inner
    }

    func send(_ request: VSHTTPRequest) async throws -> VSHTTPResponse {
        lock.withLock { paths.append(request.url.path) }
        return try await inner.send(request)
    }

    func count(of path: String) -> Int {
        lock.withLock { paths.filter { $0 == path }.count }
    }

    func reset() {
        lock.withLock { paths = [] }
    }
}
