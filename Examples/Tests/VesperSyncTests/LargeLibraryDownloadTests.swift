import DeadlineHTTP
import ExampleTestSupport
import Foundation
import Testing
import VesperCore
@testable import VesperSync

/// A library of any size downloads to a fresh device: the notes answer has no limit on its
/// whole size, only on each note in it, and a note over that limit is named in the failure.
@MainActor
@Suite(.serialized) struct LargeLibraryDownloadTests {
    static let username = "alice@example.com"
    static let password = "correct horse"

    @Test func aLibraryLargerThanTheWholeBodyLimitDownloadsAndAnOversizedNoteIsNamed() async throws {
        let harness = try await RealHarness.start()
        let folder = try TestFolder()
        let clock = TestClock(start: Date())
        let laptop = try await TestClient.open("laptop", in: folder, transport: harness.transport, clock: clock)
        // The fresh device refuses whole answers over 1 MB and notes over 200 KB.
        let small = VSNetworkTransport(
            deadlines: HTTPDeadlines(total: .seconds(30)), responseLimits: VSResponseLimits(wholeBody: 1_000_000, arrayElement: 200_000))
        let phone = try await TestClient.open("phone", in: folder, transport: small, clock: clock)
        do {
            try await laptop.account.createAccount(server: harness.url, username: Self.username, password: Self.password)
            let text = String(repeating: "a library of some size ", count: 2_200)  // about 50 KB
            let notes = try await laptop.vesper.userDidCreateNotes((1...30).map { (text: "\($0) \(text)", tagNames: []) })
            #expect(try await laptop.account.syncNow().notesUploaded.count == 30)

            // 30 notes of 50 KB: a 1.5 MB answer, over the whole-body limit, each note within its own.
            try await phone.account.login(server: harness.url, username: Self.username, password: Self.password)
            let first = try await phone.account.syncNow()
            #expect(first.failures == [])
            #expect(first.notesCreated.count == 30)
            #expect(Set(try await phone.noteSet().keys) == Set(notes.map(\.uniqueID)))

            // One note of 300 KB: the answer is refused, and the failure says why.
            _ = try await laptop.vesper.userDidCreateNote(text: String(repeating: "b", count: 300_000))
            #expect(try await laptop.account.syncNow().failures == [])
            let second = try await phone.account.syncNow()
            let failure = try #require(second.failures.first { $0.hasPrefix("notes: ") })
            #expect(failure.contains("answer was refused: element "), "\(failure)")
            #expect(failure.contains("is larger than 200000 bytes"), "\(failure)")
        } catch {
            try? await laptop.close()
            try? await phone.close()
            try? await harness.stop()
            throw error
        }
        try await laptop.close()
        try await phone.close()
        try await harness.stop()
    }

    @Test(arguments: [1, 3, 7, 1_000])
    func theElementCheckFollowsStringsEscapesAndNestingAcrossPieces(pieceSize: Int) throws {
        // Brackets, braces, commas and escaped quotes inside strings don't end an element.
        let body = #"[{"noteID":1,"text":"a, [b] {c} \"d,\" \\"},{"noteID":2,"tags":"x  y","nested":[1,2,{"a":","}]},3]"#
        let bytes = Array(body.utf8)
        let largest = 51  // the second element, without its comma
        var passes = VSArrayElementCheck(limit: largest)
        var refuses = VSArrayElementCheck(limit: largest - 1)
        var refused: ResponseBodyRefused?
        for start in stride(from: 0, to: bytes.count, by: pieceSize) {
            let piece = Array(bytes[start..<min(start + pieceSize, bytes.count)])
            try piece.withUnsafeBytes { try passes.inspect($0) }
            do {
                try piece.withUnsafeBytes { try refuses.inspect($0) }
            } catch let error as ResponseBodyRefused {
                refused = refused ?? error
            }
        }
        #expect(refused == ResponseBodyRefused(reason: "element 1 of the answer is larger than 50 bytes"))
    }
}
