import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport
import Testing

/// Blobs travel by their SHA-256: once however many objects hold the same bytes, resumably, and
/// downloaded with the object or when asked for; the server forgets bytes no object names.
@MainActor
struct BlobSyncTests {
    static func replica(_ server: any QSSyncTransport) async throws -> Replica {
        try await Replica(server: server, model: BoardModel.modelWithBlobs, schema: BoardModel.schemaWithBlobs, types: [])
    }

    /// `megabytes` MiB of bytes that differ from `seed`'s.
    static func bytes(megabytes: Double, seed: UInt8) -> Data {
        Data((0..<Int(megabytes * 1_048_576)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    static func cover(of id: Int64, on replica: Replica) async throws -> SQLValue? {
        try await replica.store.fetchRows("SELECT cover FROM cards WHERE uniqueID = ?", [.integer(id)]).first?.first
    }

    @Test func theSameBytesOnTwoObjectsTravelOnceEachWay() async throws {
        let server = InMemorySyncServer()
        let a = try await Self.replica(server), b = try await Self.replica(server)
        let cover = Self.bytes(megabytes: 2.5, seed: 1)
        try await a.store.execute("INSERT INTO cards (uniqueID, title, cover) VALUES (1, 'one', ?), (2, 'two', ?)", [.blob(cover), .blob(cover)])
        let pushed = try await a.sync.sync()
        #expect(pushed.blobPartsUploaded == 3 && server.blobPartsReceived == 3)
        let pulled = try await b.sync.sync()
        #expect(pulled.blobsDownloaded == 1 && server.blobDownloads == 1)
        #expect(try await Self.cover(of: 1, on: b) == .blob(cover))
        #expect(try await Self.cover(of: 2, on: b) == .blob(cover))
        // A third card with the same bytes sends no part.
        try await b.store.execute("INSERT INTO cards (uniqueID, title, cover) VALUES (3, 'three', ?)", [.blob(cover)])
        #expect(try await b.sync.sync().blobPartsUploaded == 0)
        try await a.close()
        try await b.close()
    }

    @Test func anUploadCutShortSendsOnlyThePartsThatDidNotArrive() async throws {
        let server = InMemorySyncServer()
        let flaky = PartFailingTransport(server: server, partsBeforeFailing: 2)
        let a = try await Self.replica(flaky)
        try await a.store.execute("INSERT INTO cards (uniqueID, title, cover) VALUES (1, 'one', ?)", [.blob(Self.bytes(megabytes: 4.5, seed: 2))])
        await #expect(throws: QSSyncError.self) { try await a.sync.sync() }
        #expect(server.blobPartsReceived == 2 && server.existingObjects(in: "cards").isEmpty)
        let report = try await a.sync.sync()
        #expect(report.blobPartsUploaded == 3 && server.blobPartsReceived == 5)
        #expect(server.existingObjects(in: "cards").count == 1)
        try await a.close()
    }

    @Test func aLazyBlobWaitsUntilTheAppAsksForIt() async throws {
        let server = InMemorySyncServer()
        let a = try await Self.replica(server), b = try await Self.replica(server)
        let background = Self.bytes(megabytes: 1.2, seed: 3)
        try await a.store.execute("INSERT INTO boards (uniqueID, name, background) VALUES (100, 'Trip', ?)", [.blob(background)])
        try await a.sync.sync()
        #expect(try await b.sync.sync().blobsDownloaded == 0)
        #expect(try await b.store.fetchRows("SELECT background FROM boards") == [[.null]])
        #expect(try await b.sync.waitingBlobCount() == 1)
        #expect(try await b.sync.loadBlob("background", of: .integer(100), in: "boards"))
        #expect(try await b.store.fetchRows("SELECT background FROM boards") == [[.blob(background)]])
        #expect(try await b.sync.waitingBlobCount() == 0)
        // B's own edit of the board doesn't send the background again.
        try await b.store.execute("UPDATE boards SET name = 'Trip!' WHERE uniqueID = 100")
        #expect(try await b.sync.sync().blobPartsUploaded == 0)
        try await a.close()
        try await b.close()
    }

    @Test func aPushNamingBytesTheServerLacksIsRefused() async throws {
        let server = InMemorySyncServer()
        let blob = SyncBlobReference(of: Data("never uploaded".utf8))
        let stamp = SyncStamp(milliseconds: 1, counter: 0, replica: SyncReplicaID(text: "00000000000000ab")!)
        await #expect(throws: QSSyncError.server(status: 409, code: "blobMissing", message: "upload blob \(blob.sha256) first")) {
            try await server.push(SyncPushRequest(replica: stamp.replica, changes: [
                SyncChange(table: "cards", ids: [.integer(1)], created: stamp, values: ["title": .text("x"), "cover": .blobReference(blob)]),
            ]))
        }
    }

    @Test func bytesNoObjectNamesAreForgottenOnceEveryDeviceHasMovedOn() async throws {
        let server = InMemorySyncServer()
        let a = try await Self.replica(server), b = try await Self.replica(server)
        try await a.store.execute("INSERT INTO cards (uniqueID, title, cover) VALUES (1, 'one', ?)", [.blob(Self.bytes(megabytes: 0.5, seed: 4))])
        try await a.sync.sync()
        try await b.sync.sync()
        try await a.store.execute("UPDATE cards SET cover = ? WHERE uniqueID = 1", [.blob(Self.bytes(megabytes: 0.5, seed: 5))])
        for _ in 1...3 {
            try await a.sync.sync()
            try await b.sync.sync()
        }
        #expect(server.blobCount == 1)
        #expect(try await Self.cover(of: 1, on: b) == .blob(Self.bytes(megabytes: 0.5, seed: 5)))
        try await a.close()
        try await b.close()
    }

    @Test func sha256MatchesKnownDigests() {
        #expect(SyncBlobReference(of: Data()).sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SyncBlobReference(of: Data("abc".utf8)).sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SyncBlobReference(of: Data(repeating: UInt8(ascii: "a"), count: 1_000_000)).sha256
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(SyncBlobReference(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).sha256
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SyncBlobReference(sha256: "../../etc/passwd", size: 1) == nil, "a name from the network is never a path")
    }
}

/// Passes requests to a server, but fails every blob part after the first `partsBeforeFailing`
/// until a push or pull goes through (a device killed mid-upload, then started again).
final class PartFailingTransport: QSSyncTransport, @unchecked Sendable {
    let server: InMemorySyncServer
    private var partsLeft: Int

    init(server: InMemorySyncServer, partsBeforeFailing: Int) {
        self.server = server
        partsLeft = partsBeforeFailing
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse { try await server.push(request) }
    func pull(since token: String?, limit: Int, replica: SyncReplicaID?) async throws -> SyncPullResponse {
        try await server.pull(since: token, limit: limit, replica: replica)
    }
    func blobStatus(_ blob: SyncBlobReference) async throws -> SyncBlobStatus { try await server.blobStatus(blob) }
    func downloadBlob(_ blob: SyncBlobReference) async throws -> Data { try await server.downloadBlob(blob) }

    func uploadBlobPart(_ blob: SyncBlobReference, index: Int, bytes: Data) async throws -> SyncBlobStatus {
        if partsLeft == 0 {
            partsLeft = -1
            throw QSSyncError.unreachable("killed mid-upload")
        }
        partsLeft -= 1
        return try await server.uploadBlobPart(blob, index: index, bytes: bytes)
    }
}
