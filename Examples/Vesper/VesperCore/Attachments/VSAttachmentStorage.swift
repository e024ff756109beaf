import Foundation

/// The attachment files: one file per attachment, named by its uniqueID, in the folder
/// `attachments/` beside the database file.
public struct VSAttachmentStorage: Sendable {
    /// The folder holding the files. Created when the first file is stored.
    public let folder: URL

    /// The storage for the database at `databaseURL`.
    public init(databaseURL: URL) {
        folder = databaseURL.deletingLastPathComponent().appendingPathComponent("attachments", isDirectory: true)
    }

    /// The file of `attachment`, or nil when its uniqueID is not a valid attachment name (it
    /// then has no file: one can never have been stored under it).
    public func file(for attachment: VSAttachment) -> VSAttachmentFile? {
        try? file(uniqueID: attachment.uniqueID)
    }

    /// The file of the attachment `uniqueID`.
    /// - Throws: ``VesperError/invalidAttachmentName(_:)`` for a name that is not of the
    ///   protocol's shape.
    public func file(uniqueID: String) throws(VesperError) -> VSAttachmentFile {
        try VSAttachmentFile(uniqueID: uniqueID, folder: folder)
    }

    /// The names of the files in the folder (attachment uniqueIDs); empty when there is no folder.
    public func storedFileNames() -> Set<String> {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return Set(names.filter(VSAttachmentFile.isValidName))
    }

    /// Reads the picture at `url` and checks that it is a PNG or JPEG.
    /// - Throws: ``VesperError/unreadableAttachment(path:reason:)``,
    ///   ``VesperError/unsupportedAttachment(path:)`` or ``VesperError/impossibleImageSize(path:width:height:)``.
    func readImage(at url: URL) throws -> (data: Data, info: VSImageInfo) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw VesperError.unreadableAttachment(path: url.path, reason: Self.reason(error))
        }
        guard let info = VSImageInfo(data: data) else {
            throw VesperError.unsupportedAttachment(path: url.path)
        }
        // A header can claim any size; the sync server refuses a note whose picture claims more
        // than it accepts, so such a picture is refused here, before it is attached.
        guard info.width <= VSImageInfo.maximumPixelSize, info.height <= VSImageInfo.maximumPixelSize else {
            throw VesperError.impossibleImageSize(path: url.path, width: info.width, height: info.height)
        }
        return (data, info)
    }

    /// Writes the file of an attachment (new here, or downloaded by sync), atomically.
    /// - Throws: ``VesperError/invalidAttachmentName(_:)`` or
    ///   ``VesperError/cannotStoreAttachment(path:reason:)``.
    public func store(_ data: Data, uniqueID: String) throws(VesperError) {
        try file(uniqueID: uniqueID).write(data)
    }

    /// Removes the files of attachments that are gone; a missing file is not an error, and a
    /// name that is not a valid attachment name names no file, so nothing is removed for it.
    func removeFiles(uniqueIDs: some Sequence<String>) {
        for uniqueID in uniqueIDs {
            (try? file(uniqueID: uniqueID))?.remove()
        }
    }

    /// The short reason inside a Foundation file error, for a one-line message.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return nsError.localizedDescription
    }
}
