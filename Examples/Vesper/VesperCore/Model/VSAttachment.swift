import Foundation
import QSData

/// A picture attached to a note: immutable metadata. The file itself lives in the attachments
/// folder beside the database (see ``VSAttachmentStorage``).
///
/// Not uniqued: an attachment belongs to one note, so duplicates in memory are unlikely and cheap.
public struct VSAttachment: QSDataObject, Equatable, Sendable {
    public let uniqueID: String
    public let mimeType: String
    public let height: Int64
    public let width: Int64

    public init(uniqueID: String, mimeType: String, width: Int64, height: Int64) {
        self.uniqueID = uniqueID
        self.mimeType = mimeType
        self.width = width
        self.height = height
    }

    public init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        mimeType = try row["mimeType"]
        height = try row["height"]
        width = try row["width"]
    }

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["mimeType"] = mimeType
        row["height"] = height
        row["width"] = width
    }

    /// Whether the attachment is a picture, and so may be the note's thumbnail.
    public var isImage: Bool { mimeType.hasPrefix("image/") }
}
