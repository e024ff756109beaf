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

    /// Where the file of `attachment` lives.
    public func fileURL(for attachment: VSAttachment) -> URL {
        fileURL(uniqueID: attachment.uniqueID)
    }

    /// Where the file of the attachment with `uniqueID` lives.
    public func fileURL(uniqueID: String) -> URL {
        folder.appendingPathComponent(uniqueID, isDirectory: false)
    }

    /// The names of the files in the folder (attachment uniqueIDs); empty when there is no folder.
    public func storedFileNames() -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    }

    /// Whether `name` can be a file name here: letters, digits and hyphens (a UUID, maybe with
    /// a suffix), so that a name from the network can never reach outside the folder.
    public static func isValidFileName(_ name: String) -> Bool {
        (1...80).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
        }
    }

    /// Reads the picture at `url` and checks that it is a PNG or JPEG.
    /// - Throws: ``VesperError/unreadableAttachment(path:reason:)`` or ``VesperError/unsupportedAttachment(path:)``.
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
        return (data, info)
    }

    /// Writes the file of an attachment (new here, or downloaded by sync), atomically.
    /// - Throws: ``VesperError/cannotStoreAttachment(path:reason:)``, also for a name that is
    ///   not a valid file name (see ``isValidFileName(_:)``).
    public func store(_ data: Data, uniqueID: String) throws {
        let destination = fileURL(uniqueID: uniqueID)
        guard Self.isValidFileName(uniqueID) else {
            throw VesperError.cannotStoreAttachment(path: destination.path, reason: "not a valid attachment name")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: destination, options: .atomic)
        } catch {
            throw VesperError.cannotStoreAttachment(path: destination.path, reason: Self.reason(error))
        }
    }

    /// Removes the files of attachments that are gone; a missing file is not an error.
    func removeFiles(uniqueIDs: some Sequence<String>) {
        for uniqueID in uniqueIDs {
            try? FileManager.default.removeItem(at: fileURL(uniqueID: uniqueID))
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
