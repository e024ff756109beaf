import Foundation

/// A note's `attachments` value checked before anything is stored (PROTOCOL.md, "Notes"): base64 of a JSON
/// array of attachment objects, each with a valid uniqueID, MIME type and pixel size.
///
/// The server relays attachment metadata to every device of the account, and clients name
/// files after the uniqueIDs, so a value that is not of the protocol's shape is refused with 400
/// rather than stored and served.
enum WireAttachments {
    /// The most attachments one note may carry (the shipped app allows one).
    static let maximumCount = 100
    /// The largest width or height accepted, in pixels.
    static let maximumPixelSize: Int64 = 1_000_000

    private struct Attachment: Decodable {
        var uniqueID: String
        var mimeType: String
        var width: Int64?
        var height: Int64?
    }

    /// The JSON text of a valid `attachments` value.
    /// - Throws: ``APIError/badRequest(_:)`` naming the note and what was wrong.
    static func validatedJSON(base64 string: String, noteID: Int64) throws(APIError) -> Data {
        guard let data = Data(base64Encoded: string) else {
            throw .badRequest("note \(noteID): attachments is not base64")
        }
        let attachments: [Attachment]
        do {
            attachments = try JSONDecoder().decode([Attachment].self, from: data)
        } catch {
            throw .badRequest("note \(noteID): attachments is not a JSON array of attachment objects")
        }
        guard attachments.count <= maximumCount else {
            throw .badRequest("note \(noteID): more than \(maximumCount) attachments")
        }
        for attachment in attachments {
            guard BlobFileStore.isValidName(attachment.uniqueID) else {
                throw .badRequest("note \(noteID): attachment uniqueID is not letters, digits and hyphens (1–80)")
            }
            guard isValidMIMEType(attachment.mimeType) else {
                throw .badRequest("note \(noteID): attachment \(attachment.uniqueID) has an invalid mimeType")
            }
            for size in [attachment.width, attachment.height] {
                guard (0...maximumPixelSize).contains(size ?? 0) else {
                    throw .badRequest("note \(noteID): attachment \(attachment.uniqueID) has an invalid width or height")
                }
            }
        }
        return data
    }

    /// `type/subtype`, each a token of letters, digits and `+.-_`, 100 bytes at most.
    static func isValidMIMEType(_ mimeType: String) -> Bool {
        let parts = mimeType.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard mimeType.utf8.count <= 100, parts.count == 2 else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { isAlphanumeric($0) || "+.-_".utf8.contains($0) }
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
