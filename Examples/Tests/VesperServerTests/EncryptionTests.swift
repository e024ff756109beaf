import Foundation
import Testing

@testable import VesperServerKit

@Suite("Note text encryption at rest")
struct EncryptionTests {
    @Test func theStoredRowNeverContainsThePlaintext() async throws {
        try await TestEnvironment.with { env in
            let token = try await env.signUp()
            let secret = "The eagle lands at midnight"
            _ = try await env.client.post("notes", token: token, json: [wireNote(9000, text: secret)])
            let row = try #require(try env.databaseRows("SELECT text, textKeyID FROM notes").first)
            guard case .blob(let stored) = row[0] else {
                Issue.record("text is not a blob: \(row[0])")
                return
            }
            #expect(stored.range(of: Data(secret.utf8)) == nil)
            #expect(row[1] == .integer(0))
            let file = try Data(contentsOf: URL(fileURLWithPath: env.configuration.databasePath))
            let wal = (try? Data(contentsOf: URL(fileURLWithPath: env.configuration.databasePath + "-wal"))) ?? Data()
            #expect(file.range(of: Data(secret.utf8)) == nil)
            #expect(wal.range(of: Data(secret.utf8)) == nil)
        }
    }

    @Test func oldRowsStayReadableAfterANewKeyIsAddedAndRewritesMoveToIt() async throws {
        let folder = try TestEnvironment.makeFolder()
        let key1 = Data(repeating: 1, count: 32)
        let key2 = Data(repeating: 2, count: 32)
        var token = ""
        try await TestEnvironment.with(folder: folder, { $0.textKeys = [1: key1] }) { env in
            token = try await env.signUp()
            _ = try await env.client.post(
                "notes", token: token,
                json: [wireNote(9100, text: "sealed with key 1"), wireNote(9101, text: "also key 1")])
            #expect(try env.databaseRows("SELECT DISTINCT textKeyID FROM notes") == [[1]])
        }
        // Rotate: key 2 becomes current; key 1 stays configured.
        try await TestEnvironment.with(folder: folder, { $0.textKeys = [1: key1, 2: key2] }) { env in
            let token = try await env.logIn()
            let all = try await env.client.post(
                "notes", token: token,
                json: [wireNote(9101, text: "rewritten under key 2", textDate: "2015-01-01T00:00:00.000Z")])
            let texts = Set(try all.jsonArray().compactMap { $0["text"] as? String })
            #expect(texts == ["sealed with key 1", "rewritten under key 2"])
            #expect(
                try env.databaseRows("SELECT noteID, textKeyID FROM notes ORDER BY noteID") == [[9100, 1], [9101, 2]])
        }
        // Without key 1 the old row cannot be read: the server fails the call (500) rather than
        // returning or writing back a null text.
        try await TestEnvironment.with(folder: folder, { $0.textKeys = [2: key2] }) { env in
            let token = try await env.logIn()
            let response = try await env.client.post(
                "notes", token: token, json: [wireNote(9100, text: "x", textDate: "2016-01-01T00:00:00.000Z")])
            #expect(response.status == 500)
            let row = try env.databaseRows("SELECT textKeyID FROM notes WHERE noteID = 9100")
            #expect(row == [[1]])
        }
    }

    @Test func ciphertextIsBoundToItsRow() throws {
        let cipher = TextCipher(keys: [0: ServerKeys(secret: "x").defaultTextKey], currentKeyID: 0)
        let sealed = try cipher.seal("hello", userID: 1, noteID: 2)
        #expect(try cipher.open(sealed, userID: 1, noteID: 2) == "hello")
        #expect(throws: TextCipher.Failure.self) { try cipher.open(sealed, userID: 2, noteID: 2) }
        #expect(throws: TextCipher.Failure.self) { try cipher.open(sealed, userID: 1, noteID: 3) }
        // A fresh nonce per write: equal texts give different ciphertexts.
        #expect(try cipher.seal("hello", userID: 1, noteID: 2) != sealed)
    }
}
