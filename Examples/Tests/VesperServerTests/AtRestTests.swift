import Foundation
import Testing

@testable import VesperServerKit

/// What the server leaves on disk: attachment bytes sealed like note text (and still readable
/// after a key rotation), the database and attachment files readable by the server's user only.
@Suite("Data at rest")
struct AtRestTests {
    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func attachmentBytesAreSealedOwnerOnlyAndSurviveAKeyRotation() async throws {
        let folder = try TestEnvironment.makeFolder()
        let bytes = Data("a picture that must not be readable on disk".utf8)
        let name = "6F9619FF-8B86-4D01-B42D-00C04FC964FF"
        try await TestEnvironment.with(folder: folder) { env in
            let token = try await env.signUp()
            try await BlobTests.upload(bytes, name: name, token: token, env: env)
            let attachments = URL(fileURLWithPath: env.configuration.attachmentsPath)
            let user = try #require(try FileManager.default.contentsOfDirectory(atPath: attachments.path).first)
            let stored = try Data(contentsOf: attachments.appendingPathComponent("\(user)/\(name)"))
            #expect(stored.starts(with: Data("VSB1".utf8)))
            #expect(stored.range(of: bytes) == nil)
            #expect(try Self.mode(env.configuration.databasePath) == 0o600)
            #expect(try Self.mode(attachments.path) == 0o700)
            #expect(try Self.mode(attachments.appendingPathComponent(user).path) == 0o700)
            #expect(try Self.mode(attachments.appendingPathComponent("\(user)/\(name)").path) == 0o600)
        }
        // A new current key: the file sealed with key 0 still opens.
        try await TestEnvironment.with(folder: folder, { $0.textKeys = [1: Data(repeating: 7, count: 32)] }) { env in
            let token = try await env.logIn()
            let download = try await env.client.send("GET", "blobs/download?filename=\(name)", headers: TestClient.auth(token))
            let location = try #require(download.header("Location").flatMap(URL.init(string:)))
            #expect(try await env.client.send("GET", url: location).body == bytes)
        }
    }
}
