// VSAttachment is generated from Vesper.plist: a picture attached to a note, as immutable
// metadata. The file itself lives in the attachments folder beside the database (see
// ``VSAttachmentStorage``). Not uniqued: an attachment belongs to one note, so duplicates in
// memory are unlikely and cheap.
extension VSAttachment {
    public init(uniqueID: String, mimeType: String, width: Int64, height: Int64) {
        self.init(uniqueID: uniqueID, height: height, mimeType: mimeType, width: width)
    }

    /// Whether the attachment is a picture, and so may be the note's thumbnail.
    public var isImage: Bool { mimeType.hasPrefix("image/") }
}
