import Foundation
import QSDataSync
import SyncServerKit
import Testing

/// Blobs on both storages and over HTTP: parts taken in any order and once, joined and checked
/// by their digest, refused pushes that name bytes not held, and bytes no live object names
/// forgotten once every active replica has moved past them.
struct BlobTests {
    typealias Kind = StorageTests.Kind

    static func bytes(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) })
    }

    @Test(arguments: StorageTests.kinds)
    func partsArriveInAnyOrderAndTheWholeIsCheckedByItsDigest(_ kind: Kind) async throws {
        try await CollectionTests().withService(kind, clock: CollectionTests.Clock()) { service, account, storage in
            let bytes = Self.bytes(2 * SyncProtocol.blobPartSize + 1_000, seed: 1)
            let blob = SyncBlobReference(of: bytes)
            #expect(try await service.blobStatus(blob, accountID: account) == SyncBlobStatus(complete: false, parts: []))
            _ = try await service.uploadBlobPart(blob, index: 2, bytes: blob.part(2, of: bytes), accountID: account)
            #expect(try await service.uploadBlobPart(blob, index: 0, bytes: blob.part(0, of: bytes), accountID: account)
                == SyncBlobStatus(complete: false, parts: [0, 2]))
            await #expect(throws: SyncServiceError.self) {
                try await service.downloadBlob(blob, accountID: account)
            }
            #expect(try await service.uploadBlobPart(blob, index: 1, bytes: blob.part(1, of: bytes), accountID: account)
                == SyncBlobStatus(complete: true, parts: []))
            #expect(try await service.downloadBlob(blob, accountID: account) == bytes)
            #expect(try await storage.blobCount(accountID: account) == 1)

            // Parts that join into other bytes are dropped, and the upload starts again.
            let claimed = SyncBlobReference(of: Self.bytes(10, seed: 2))
            await #expect(throws: SyncServiceError.self) {
                try await service.uploadBlobPart(claimed, index: 0, bytes: Self.bytes(10, seed: 3), accountID: account)
            }
            #expect(try await service.blobStatus(claimed, accountID: account) == SyncBlobStatus(complete: false, parts: []))
            await #expect(throws: SyncServiceError.self) {
                try await service.uploadBlobPart(blob, index: 3, bytes: Data(), accountID: account)
            }
        }
    }

    @Test(arguments: StorageTests.kinds)
    func aPushMayNameOnlyWholeBlobsAndBytesNoOneNamesAreForgotten(_ kind: Kind) async throws {
        let clock = CollectionTests.Clock()
        let helper = CollectionTests()
        try await helper.withService(kind, clock: clock) { service, account, storage in
            let first = Self.bytes(100, seed: 4), second = Self.bytes(100, seed: 5)
            let a = Stamps.a
            var token = try await helper.pullAll(service, account, as: a, since: nil)
            let cover = SyncChange(table: "notes", ids: [.integer(1)], created: Stamps.at(0), values: ["cover": .blobReference(SyncBlobReference(of: first))])
            await #expect(throws: SyncServiceError.self) {
                try await service.push(SyncPushRequest(replica: a, changes: [cover], since: token), accountID: account)
            }
            for bytes in [first, second] {
                _ = try await service.uploadBlobPart(SyncBlobReference(of: bytes), index: 0, bytes: bytes, accountID: account)
            }
            _ = try await service.push(SyncPushRequest(replica: a, changes: [cover], since: token), accountID: account)
            token = try await helper.pullAll(service, account, as: a, since: token)
            let replaced = SyncChange(table: "notes", ids: [.integer(1)], values: ["cover": .blobReference(SyncBlobReference(of: second))],
                                      stamps: ["cover": Stamps.at(5)])
            _ = try await service.push(SyncPushRequest(replica: a, changes: [replaced], since: token), accountID: account)
            token = try await helper.pullAll(service, account, as: a, since: token)
            _ = try await helper.pullAll(service, account, as: a, since: token)
            #expect(try await storage.blobCount(accountID: account) == 1)
            #expect(try await service.downloadBlob(SyncBlobReference(of: second), accountID: account) == second)
        }
    }

    @Test func blobsTravelOverHTTP() async throws {
        let server = try await TestServer.start()
        do {
            try await QSSyncHTTPTransport.createAccount(server: server.baseURL, username: "ann", password: "correct horse")
            let session = try await QSSyncHTTPTransport.logIn(server: server.baseURL, username: "ann", password: "correct horse")
            let transport = QSSyncHTTPTransport(server: server.baseURL, token: session.token)
            let bytes = Self.bytes(SyncProtocol.blobPartSize + 10, seed: 6)
            let blob = SyncBlobReference(of: bytes)
            #expect(try await transport.blobStatus(blob) == SyncBlobStatus(complete: false, parts: []))
            _ = try await transport.uploadBlobPart(blob, index: 1, bytes: blob.part(1, of: bytes))
            #expect(try await transport.uploadBlobPart(blob, index: 0, bytes: blob.part(0, of: bytes)).complete)
            #expect(try await transport.downloadBlob(blob) == bytes)
            await #expect(throws: QSSyncError.server(status: 404, code: "blobNotFound", message: "no whole blob \(SyncBlobReference(of: Data()).sha256)")) {
                try await transport.downloadBlob(SyncBlobReference(of: Data()))
            }
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }
}
