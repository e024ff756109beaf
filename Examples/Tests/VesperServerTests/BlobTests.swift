import Crypto
import ExampleTestSupport
import Foundation
import Testing

@testable import VesperServerKit

@Suite("Attachment blobs")
struct BlobTests {
    static func md5(_ data: Data) -> String { Data(Insecure.MD5.hash(data: data)).base64EncodedString() }

    static func uploadURL(
        for data: Data, name: String, md5: String? = nil, token: String, env: TestEnvironment
    ) async throws -> URL {
        let md5 = md5 ?? Self.md5(data)
        func encode(_ value: String) -> String {
            value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
        }
        let query = "contentLength=\(data.count)&date=\(encode("Thu, 12 Jun 2014 23:44:29 GMT"))&filename=\(encode(name))"
            + "&md5=\(encode(md5))&mimeType=\(encode("image/jpeg"))"
        let response = try await env.client.send("GET", "blobs/urlForUploading?" + query, headers: TestClient.auth(token))
        try #require(response.status == 200, "urlForUploading: \(response.status) \(response.text)")
        let object = try #require(try response.jsonObject() as? [String: Any])
        return try #require((object["url"] as? String).flatMap(URL.init(string:)))
    }

    static func upload(_ data: Data, name: String, token: String, env: TestEnvironment) async throws {
        let url = try await uploadURL(for: data, name: name, token: token, env: env)
        let put = try await env.client.send(
            "PUT", url: url, headers: ["Content-Type": "image/jpeg", "Content-MD5": md5(data)], body: data)
        #expect(put.status == 201)
    }

    @Test(arguments: Engine.available) func uploadListDownloadAndDeleteABlob(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let token = try await env.signUp()
            let bytes = Data((0..<10_000).map { UInt8($0 % 251) })
            let name = "6F9619FF-8B86-4D01-B42D-00C04FC964FF"
            try await Self.upload(bytes, name: name, token: token, env: env)
            // Uploading the same bytes again is idempotent.
            try await Self.upload(bytes, name: name, token: token, env: env)

            let list = try await env.client.send("GET", "blobs/list", headers: TestClient.auth(token))
            #expect(list.status == 200)
            #expect(try list.jsonArray().map { $0 as NSDictionary } == [["name": name, "contentType": "image/jpeg"]])

            let download = try await env.client.send(
                "GET", "blobs/download?filename=\(name)", headers: TestClient.auth(token))
            #expect(download.status == 302)
            let location = try #require(download.header("Location").flatMap(URL.init(string:)))
            let fetched = try await env.client.send("GET", url: location)
            #expect(fetched.status == 200)
            #expect(fetched.body == bytes)
            #expect(fetched.header("Content-Type") == "image/jpeg")

            // The stock client's DELETE has a double slash.
            let deleted = try await env.client.send("DELETE", "//api/blobs/\(name)", headers: TestClient.auth(token))
            #expect(deleted.status == 200)
            #expect(try await env.client.send("DELETE", "/api/blobs/\(name)", headers: TestClient.auth(token)).status == 404)
            #expect(try await env.client.send("DELETE", "/api/blobs", headers: TestClient.auth(token)).status == 400)
            #expect(try await env.client.send("GET", url: location).status == 404)
        }
    }

    @Test(arguments: Engine.available) func anUploadWithTheWrongMD5IsRejectedAndNotStored(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let token = try await env.signUp()
            let bytes = Data("the real bytes".utf8)
            // Announced MD5 doesn't match the bytes.
            let url = try await Self.uploadURL(
                for: bytes, name: "BAD-1", md5: Self.md5(Data("other".utf8)), token: token, env: env)
            let put = try await env.client.send("PUT", url: url, headers: ["Content-Type": "image/jpeg"], body: bytes)
            #expect(put.status == 400)
            // Signed MD5 right but the Content-MD5 header wrong.
            let url2 = try await Self.uploadURL(for: bytes, name: "BAD-2", token: token, env: env)
            let put2 = try await env.client.send(
                "PUT", url: url2, headers: ["Content-MD5": Self.md5(Data("x".utf8))], body: bytes)
            #expect(put2.status == 400)
            #expect(try await env.client.send("GET", "blobs/list", headers: TestClient.auth(token)).jsonArray().isEmpty)
            switch env.engine {
            case .sqlite:
                let files = try? FileManager.default.contentsOfDirectory(
                    atPath: env.configuration.attachmentsPath + "/user-1")
                #expect((files ?? []).isEmpty)
            case .postgres:
                #expect(try await env.databaseRows("SELECT count(*) FROM blobBytes") == [[0]])
            }
        }
    }

    @Test(arguments: Engine.available) func signedURLsExpireAndCannotBeForged(engine: Engine) async throws {
        let clock = TestClock(start: Date())
        try await TestEnvironment.with(engine, { $0.now = { clock.date } }) { env in
            let token = try await env.signUp()
            let bytes = Data("late".utf8)
            let url = try await Self.uploadURL(for: bytes, name: "LATE-1", token: token, env: env)
            clock.advance(300)
            #expect(try await env.client.send("PUT", url: url, body: bytes).status == 403)
            let forged = URL(string: url.absoluteString.replacingOccurrences(of: "blobstore/", with: "blobstore/x"))
            #expect(try await env.client.send("PUT", url: try #require(forged), body: bytes).status == 403)
        }
    }

    @Test(arguments: Engine.available) func invalidBlobNamesAre400AndUnknownBlobsAre404(engine: Engine) async throws {
        try await TestEnvironment.with(engine) { env in
            let token = try await env.signUp()
            for name in ["..%2F..%2Fetc%2Fpasswd", "a%2Fb", "", String(repeating: "a", count: 81), "a.b"] {
                let response = try await env.client.send(
                    "GET", "blobs/urlForUploading?filename=\(name)&md5=\(Self.md5(Data()))", headers: TestClient.auth(token))
                #expect(response.status == 400, "\(name)")
            }
            let missing = try await env.client.send("GET", "blobs/download?filename=NOPE", headers: TestClient.auth(token))
            #expect(missing.status == 404)
            #expect(try await env.client.send("GET", "blobs/list").status == 401)
        }
    }
}
