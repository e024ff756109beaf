import ExampleTestSupport
import Foundation
import Testing
import VesperCommands
import VesperCore
import VesperSync

/// Attachment IDs that are paths, sent by a hostile device (or server) to the same account:
/// the client refuses them where they enter, and the attachment storage can't name a file
/// outside its folder even for IDs already in a database. Nothing outside the folder is touched.
@MainActor
@Suite struct HostileAttachmentTests {
    static let hostileIDs = ["../../victim/important.txt", "../../victim/subdir", "..", ".", "/tmp", "a/b", "../vesper-account.json"]

    /// Files an attack would remove: a file and a folder beside the client's folder, the
    /// client's account file and its attachments folder (with a genuine attachment in it).
    struct Victims {
        let important: URL
        let subfolderFile: URL
        let accountFile: URL
        let genuineAttachment: URL

        @MainActor init(folder: TestFolder, client: TestClient) throws {
            let victim = folder.url.appendingPathComponent("victim", isDirectory: true)
            try FileManager.default.createDirectory(at: victim.appendingPathComponent("subdir"), withIntermediateDirectories: true)
            important = victim.appendingPathComponent("important.txt")
            try Data("keep me".utf8).write(to: important)
            subfolderFile = victim.appendingPathComponent("subdir/file.txt")
            try Data("keep me too".utf8).write(to: subfolderFile)
            accountFile = client.account.file.url
            if !FileManager.default.fileExists(atPath: accountFile.path) {
                try Data("{}".utf8).write(to: accountFile)   // stands in for the account of a logged-in client
            }
            genuineAttachment = try client.vesper.attachmentStorage.file(uniqueID: "6F9619FF-8B86-4D01-B42D-00C04FC964FF").url
            try client.vesper.attachmentStorage.store(SampleImages.png, uniqueID: "6F9619FF-8B86-4D01-B42D-00C04FC964FF")
        }

        func expectAllIntact(sourceLocation: SourceLocation = #_sourceLocation) {
            for url in [important, subfolderFile, accountFile, genuineAttachment] {
                #expect(FileManager.default.fileExists(atPath: url.path), "\(url.path) was removed", sourceLocation: sourceLocation)
            }
        }
    }

    /// The attack through the protocol: another device of the account uploads notes whose
    /// attachments are paths, then deletes them; the victim syncs after each step.
    @Test func syncRefusesPathsAsAttachmentIDsAndRemovesNothingOutsideTheFolder() async throws {
        let folder = try TestFolder()
        let server = FakeVesperServer()
        let clock = TestClock()
        let client = try await TestClient.open("day", in: folder, transport: server, clock: clock)
        try await client.account.createAccount(server: FakeVesperServer.root, username: "v@example.com", password: "a long password")
        let victims = try Victims(folder: folder, client: client)

        let token = try await Self.logIn(server, "v@example.com", "a long password")
        var notes: [VSJSON] = []
        for (index, id) in Self.hostileIDs.enumerated() {
            let attachments = try VSJSON.array([.object(["uniqueID": .string(id), "mimeType": .string("image/png")])]).data()
            notes.append(.object([
                "noteID": .integer(5000 + Int64(index)), "text": .string("evil \(index)"),
                "attachments": .string(attachments.base64EncodedString()),
                "attachmentsModificationDate": .string("2020-01-01T00:00:00.000Z"),
            ]))
        }
        #expect(try await Self.post(server, "notes", token: token, .array(notes)).statusCode == 200)

        let first = try await client.account.syncNow()
        #expect(first.notesRejected.count == Self.hostileIDs.count)
        #expect(first.notesCreated.isEmpty)
        #expect(try await client.vesper.referencedAttachments().isEmpty)
        victims.expectAllIntact()

        let ids = (0..<Self.hostileIDs.count).map { VSJSON.integer(5000 + Int64($0)) }
        #expect(try await Self.post(server, "deletedNotes", token: token, .array(ids)).statusCode == 200)
        clock.advance()
        _ = try await client.account.syncNow()
        victims.expectAllIntact()
        try await client.close()
    }

    /// IDs already stored (by an older client, or written around the wire checks): deleting
    /// their notes, by the user or by a sync, removes no file outside the folder.
    @Test func deletingNotesWithStoredPathIDsRemovesNothingOutsideTheFolder() async throws {
        let folder = try TestFolder()
        let client = try await TestClient.open("day", in: folder, transport: FakeVesperServer(), clock: TestClock())
        let victims = try Victims(folder: folder, client: client)
        var notes: [VSNote] = []
        for (index, id) in Self.hostileIDs.enumerated() {
            var values = VSNoteServerValues()
            values.text = VSServerValue("stored \(index)", modificationDate: nil)
            values.attachments = VSServerValue([VSAttachment(uniqueID: id, mimeType: "image/png", width: 1, height: 1)], modificationDate: nil)
            notes.append(try client.vesper.applySyncNewNote(uniqueID: 7000 + Int64(index), creationDate: Date(), values: values))
        }
        try await client.vesper.flush()

        try await client.vesper.userDidDeleteNotes(Array(notes.prefix(3)))
        victims.expectAllIntact()
        let deleted = try await client.vesper.applySyncDeletedNotes(ids: notes.dropFirst(3).map(\.uniqueID))
        #expect(deleted.count == Self.hostileIDs.count - 3)
        victims.expectAllIntact()
        #expect(try await client.vesper.allNotes().isEmpty)
        try await client.close()
    }

    @Test func theStorageRefusesEveryNameThatIsNotOfTheProtocolsShape() throws {
        let storage = VSAttachmentStorage(databaseURL: URL(fileURLWithPath: "/data/vesper/vesper.sqlite"))
        for name in Self.hostileIDs + ["", "..\u{0}", "a b", "é", "a\\b", String(repeating: "A", count: 81)] {
            #expect(throws: VesperError.invalidAttachmentName(name)) { try storage.file(uniqueID: name) }
        }
        let file = try storage.file(uniqueID: "6F9619FF-8B86-4D01-B42D-00C04FC964FF-low")
        #expect(file.url.path == "/data/vesper/attachments/6F9619FF-8B86-4D01-B42D-00C04FC964FF-low")
    }

    // MARK: Raw requests, as a hostile device sends them

    static func logIn(_ server: FakeVesperServer, _ username: String, _ password: String) async throws -> String {
        let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
        let response = try await server.send(VSHTTPRequest(
            method: "POST", url: FakeVesperServer.root.appendingPathComponent("api/login"),
            headers: ["Authorization": "Basic \(credentials)"]))
        return try #require(try VSJSON.parse(response.body)["token"]?.string)
    }

    static func post(_ server: FakeVesperServer, _ name: String, token: String, _ body: VSJSON) async throws -> VSHTTPResponse {
        try await server.send(VSHTTPRequest(
            method: "POST", url: FakeVesperServer.root.appendingPathComponent("api/\(name)"),
            headers: ["x-zumo-auth": token, "Content-Type": "application/json"], body: try body.data()))
    }
}
