import Foundation
import VesperCore

/// An attachment's metadata as it travels inside a note: uniqueID, MIME type, pixel size.
public struct VSSyncAttachment: Sendable, Equatable {
    public var uniqueID: String
    public var mimeType: String
    public var width: Int64
    public var height: Int64

    public init(uniqueID: String, mimeType: String, width: Int64, height: Int64) {
        self.uniqueID = uniqueID
        self.mimeType = mimeType
        self.width = width
        self.height = height
    }

    public init(_ attachment: VSAttachment) {
        self.init(uniqueID: attachment.uniqueID, mimeType: attachment.mimeType, width: attachment.width, height: attachment.height)
    }

    /// Reads one element of the attachments array. Width and height missing or null mean 0.
    /// - Throws: ``VSSyncObjectError/invalidValue(kind:key:)`` for a uniqueID that is not of the
    ///   protocol's shape (see ``VSAttachmentFile/isValidName(_:)``): such a name could point
    ///   outside the attachments folder, so it is refused where it enters.
    public init(json: VSJSON) throws {
        guard case .object = json else { throw VSSyncObjectError.notAnObject(kind: "attachment") }
        guard let uniqueID = json["uniqueID"]?.string, !uniqueID.isEmpty else {
            throw VSSyncObjectError.missingValue(kind: "attachment", key: "uniqueID")
        }
        guard VSAttachmentFile.isValidName(uniqueID) else {
            throw VSSyncObjectError.invalidValue(kind: "attachment", key: "uniqueID")
        }
        guard let mimeType = json["mimeType"]?.string else {
            throw VSSyncObjectError.missingValue(kind: "attachment", key: "mimeType")
        }
        self.init(uniqueID: uniqueID, mimeType: mimeType, width: json["width"]?.integer ?? 0, height: json["height"]?.integer ?? 0)
    }

    /// The model value.
    public var attachment: VSAttachment {
        VSAttachment(uniqueID: uniqueID, mimeType: mimeType, width: width, height: height)
    }

    public var json: VSJSON {
        .object(["uniqueID": .string(uniqueID), "mimeType": .string(mimeType), "width": .integer(width), "height": .integer(height)])
    }

    /// A note's `attachments` value: standard base64 (padded, no line breaks) of the JSON array.
    public static func base64(_ attachments: [VSSyncAttachment]) throws -> String {
        try VSJSON.array(attachments.map(\.json)).data().base64EncodedString()
    }

    /// Reads a note's `attachments` value; nil when it is not base64 of a JSON array of
    /// attachments with valid IDs.
    public static func list(base64 string: String) -> [VSSyncAttachment]? {
        guard let data = Data(base64Encoded: string), let elements = (try? VSJSON.parse(data))?.array else { return nil }
        return try? elements.map(VSSyncAttachment.init(json:))
    }
}
