import Foundation

/// The file of one attachment: the only way the app names a file in the attachments folder.
///
/// An attachment's uniqueID arrives from other devices through the sync server, so it is
/// untrusted. A ``VSAttachmentFile`` exists only for a name of the protocol's shape (letters,
/// digits and hyphens, as in an uppercase UUID with an optional `-low` suffix), and its
/// resolved location is checked to be directly inside the folder. Every read, write and
/// removal of an attachment file goes through this type, so no uniqueID — `..`,
/// `../../victim`, `a/b`, an absolute path — can reach a file elsewhere.
///
/// ```swift
/// let file = try VSAttachmentFile(uniqueID: "6F9619FF-8B86-4D01-B42D-00C04FC964FF", folder: folder)
/// try file.remove()
/// ```
public struct VSAttachmentFile: Sendable, Equatable {
    /// The attachment's uniqueID, which is the file's name.
    public let uniqueID: String
    /// Where the file lives: always directly inside the attachments folder.
    public let url: URL

    /// The file of the attachment `uniqueID` in `folder`.
    /// - Throws: ``VesperError/invalidAttachmentName(_:)`` when the name is not of the protocol's
    ///   shape or would resolve outside `folder`.
    public init(uniqueID: String, folder: URL) throws(VesperError) {
        guard Self.isValidName(uniqueID) else { throw .invalidAttachmentName(uniqueID) }
        let root = folder.standardizedFileURL
        let candidate = root.appendingPathComponent(uniqueID, isDirectory: false).standardizedFileURL
        guard candidate.deletingLastPathComponent().path == root.path, candidate.lastPathComponent == uniqueID else {
            throw .invalidAttachmentName(uniqueID)
        }
        self.uniqueID = uniqueID
        url = candidate
    }

    /// Whether `name` has the protocol's shape for an attachment ID: 1 to 80 ASCII letters,
    /// digits and hyphens. No separators, no dots, so never `.`, `..` or a path.
    public static func isValidName(_ name: String) -> Bool {
        (1...80).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
        }
    }

    /// Whether a plain file (not a link, not a folder) is there.
    public var exists: Bool { itemType == .typeRegular }

    /// What is at the file's place, without following a link; nil when nothing is.
    private var itemType: FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
    }

    /// The file's bytes; a link or a folder in its place is refused, so a planted link can't
    /// make the app read (and upload) a file from elsewhere.
    public func read() throws(VesperError) -> Data {
        guard exists else { throw .unreadableAttachment(path: url.path, reason: "not a plain file") }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .unreadableAttachment(path: url.path, reason: VSAttachmentStorage.reason(error))
        }
    }

    /// Writes the bytes atomically (a link in its place is replaced, never followed).
    public func write(_ data: Data) throws(VesperError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw .cannotStoreAttachment(path: url.path, reason: VSAttachmentStorage.reason(error))
        }
    }

    /// Removes the file. A missing file is not an error; a folder in its place is left alone
    /// (an attachment is never a folder), and a link is removed without touching its target.
    public func remove() {
        guard let type = itemType, type != .typeDirectory else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            // Already gone, or not ours to remove: either way nothing outside the folder is touched.
        }
    }
}
