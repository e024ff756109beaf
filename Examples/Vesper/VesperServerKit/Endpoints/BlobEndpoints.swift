import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// blobs/list, blobs/urlForUploading, blobs/download, DELETE blobs/<name>, and the
/// `blobstore/<capability>` URLs this server hands out for the bytes themselves (PROTOCOL.md, "Attachment data").
extension VesperAPI {
    private struct BlobListItem: Encodable {
        var name: String
        var contentType: String
    }
    private struct UploadURL: Encodable { var url: String }

    /// 200 with every blob of the caller (the complete list, not only a first page).
    func listBlobs(_ request: Request, context: VesperRequestContext) async throws -> Response {
        let account = try await authenticate(request)
        let blobs = try await storage.blobs(userID: account.id)
        return try .json(blobs.map { BlobListItem(name: $0.name, contentType: $0.contentType) })
    }

    /// 200 `{"url": …}`: a signed, write-only URL on this server, valid for `blobURLLifetime`,
    /// that accepts exactly the announced MD5 and length when the client announced them.
    func urlForUploading(_ request: Request, target: RequestTarget, context: VesperRequestContext) async throws
        -> Response
    {
        let account = try await authenticate(request)
        let name = try Self.blobName(target.query["filename"])
        var md5: String?
        if let value = target.query["md5"], !value.isEmpty {
            // A literal "+" may have been turned into a space by a lax encoder.
            let base64 = value.replacingOccurrences(of: " ", with: "+")
            guard let digest = Data(base64Encoded: base64), digest.count == Insecure.MD5.byteCount else {
                throw APIError.badRequest("md5 must be the base64 of 16 bytes")
            }
            md5 = digest.base64EncodedString()
        }
        var contentLength: Int64?
        if let value = target.query["contentLength"], !value.isEmpty {
            guard let length = Int64(value), length > 0 else {
                throw APIError.badRequest("contentLength must be a positive integer")
            }
            guard length <= Int64(configuration.maxBlobBytes) else {
                throw APIError.payloadTooLarge(limit: configuration.maxBlobBytes)
            }
            contentLength = length
        }
        let capability = BlobCapability(
            operation: .put, userID: account.id, name: name, expiry: expiry(), md5: md5,
            contentLength: contentLength, contentType: try Self.contentType(target.query["mimeType"]))
        return try .json(UploadURL(url: publicBaseURL(for: request) + "blobstore/" + capability.signed(with: keys.blobURLs)))
    }

    /// 302 to a signed read-only URL valid for `blobURLLifetime`; 404 when there is no such blob.
    func downloadBlob(_ request: Request, target: RequestTarget, context: VesperRequestContext) async throws
        -> Response
    {
        let account = try await authenticate(request)
        let name = try Self.blobName(target.query["filename"])
        guard try await storage.blob(named: name, userID: account.id) != nil else { throw APIError.notFound }
        let capability = BlobCapability(operation: .get, userID: account.id, name: name, expiry: expiry())
        var response = Response.empty(.found)
        response.headers[.location] = publicBaseURL(for: request) + "blobstore/" + capability.signed(with: keys.blobURLs)
        return response
    }

    /// 200 when deleted; 400 for a missing or invalid name; 404 when there is no such blob.
    func deleteBlob(_ request: Request, name: Substring?, context: VesperRequestContext) async throws -> Response {
        let account = try await authenticate(request)
        let name = try Self.blobName(name.map(String.init))
        guard try await storage.deleteBlob(named: name, userID: account.id) else { throw APIError.notFound }
        try await blobBytes.remove(name: name, userID: account.id)
        return .empty(.ok)
    }

    // MARK: blobstore

    /// PUT with a valid upload capability: checks length and MD5 (`Content-MD5` and the signed
    /// one), stores the bytes atomically, 201. Bad or expired capability → 403; MD5 or length
    /// mismatch → 400; too large → 413.
    func putBlob(_ request: Request, capability token: Substring, context: VesperRequestContext) async throws
        -> Response
    {
        let capability = try verifiedCapability(token, operation: .put)
        let limit = configuration.maxBlobBytes
        let body = try await request.collectBody(limit: limit)
        let bytes = Data(body.readableBytesView)
        if let expected = capability.contentLength, expected != Int64(bytes.count) {
            throw APIError.badRequest("the body is \(bytes.count) bytes, not the announced \(expected)")
        }
        let md5 = Data(Insecure.MD5.hash(data: bytes)).base64EncodedString()
        for expected in [capability.md5, request.headers[.contentMD5]].compactMap({ $0 }) where expected != md5 {
            throw APIError.badRequest("Content-MD5 mismatch")
        }
        let contentType =
            capability.contentType ?? (try? Self.contentType(request.headers[.contentType])) ?? "application/octet-stream"
        try await blobBytes.write(bytes, name: capability.name, userID: capability.userID)
        try await storage.saveBlob(
            BlobRecord(
                name: capability.name, contentType: contentType, byteCount: Int64(bytes.count), md5: md5,
                dateCreated: clock.milliseconds()),
            userID: capability.userID)
        context.logger.info("Blob stored", metadata: ["userID": "\(capability.userID)", "bytes": "\(bytes.count)"])
        return .empty(.created)
    }

    /// GET with a valid download capability: 200 with the bytes and their content type.
    func getBlob(_ request: Request, capability token: Substring, context: VesperRequestContext) async throws
        -> Response
    {
        let capability = try verifiedCapability(token, operation: .get)
        guard let record = try await storage.blob(named: capability.name, userID: capability.userID),
            let bytes = try await blobBytes.read(name: capability.name, userID: capability.userID)
        else { throw APIError.notFound }
        var headers: HTTPFields = [.contentType: record.contentType]
        headers[.contentMD5] = record.md5
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    // MARK: Helpers

    private func expiry() -> Int64 {
        clock.milliseconds(after: configuration.blobURLLifetime)
    }

    private func verifiedCapability(_ token: Substring, operation: BlobCapability.Operation) throws -> BlobCapability {
        guard let capability = BlobCapability.verified(String(token), key: keys.blobURLs),
            capability.operation == operation, BlobFileStore.isValidName(capability.name)
        else { throw APIError.forbidden("invalid blob URL") }
        guard clock.milliseconds() < capability.expiry else { throw APIError.forbidden("the blob URL has expired") }
        return capability
    }

    private static func blobName(_ name: String?) throws -> String {
        guard let name, !name.isEmpty else { throw APIError.badRequest("the blob name is missing") }
        guard BlobFileStore.isValidName(name) else { throw APIError.badRequest("invalid blob name") }
        return name
    }

    /// A MIME type fit for a header: `type/subtype` in printable ASCII, at most 100 bytes.
    private static func contentType(_ value: String?) throws -> String? {
        guard let value, !value.isEmpty else { return nil }
        guard value.utf8.count <= 100, value.contains("/"), value.utf8.allSatisfy({ $0 > 32 && $0 < 127 || $0 == 32 })
        else { throw APIError.badRequest("invalid mimeType") }
        return value
    }
}
