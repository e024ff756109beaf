import Foundation

/// What the Vesper app core refuses, and why. Each message reads as one line in a terminal.
public enum VesperError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No note has this uniqueID.
    case noteNotFound(Int64)
    /// A note's text must have something in it besides whitespace.
    case emptyText
    /// A tag name must have something in it besides whitespace.
    case emptyTagName
    /// A tag name longer than ``VSTag/maximumNameLength`` characters.
    case tagNameTooLong(limit: Int)
    /// No tag has this name.
    case tagNotFound(String)
    /// The note does not have this tag.
    case tagNotOnNote(name: String, noteID: Int64)
    /// A tag rename may change only the case of the name.
    case tagRenameNotCaseOnly(from: String, to: String)
    /// The file to attach can't be read.
    case unreadableAttachment(path: String, reason: String)
    /// The file to attach is not a PNG or JPEG picture.
    case unsupportedAttachment(path: String)
    /// The picture's header claims a width or height beyond ``VSImageInfo/maximumPixelSize``:
    /// no real picture is that large, and the sync server would refuse the note.
    case impossibleImageSize(path: String, width: Int64, height: Int64)
    /// The attachment's file can't be written into the attachments folder.
    case cannotStoreAttachment(path: String, reason: String)
    /// An attachment ID that is not of the protocol's shape (letters, digits and hyphens), so it
    /// names no file in the attachments folder.
    case invalidAttachmentName(String)
    /// The database's folder does not exist, or is not a folder.
    case databaseFolderMissing(path: String)
    /// The database path names a file that isn't a Vesper notes database (another app's
    /// SQLite database, or no database at all); it was left as it was.
    case notAVesperDatabase(path: String)
    /// The new database file can't be created in its folder.
    case cannotCreateDatabase(path: String, reason: String)
    /// No free note ID was found (practically impossible: 2^53 candidates).
    case noFreeNoteID

    public var description: String {
        switch self {
        case .noteNotFound(let id): "There is no note with ID \(id)."
        case .emptyText: "A note needs some text."
        case .emptyTagName: "A tag needs a name."
        case .tagNameTooLong(let limit): "A tag name can be at most \(limit) characters long."
        case .tagNotFound(let name): "There is no tag named \"\(name)\"."
        case .tagNotOnNote(let name, let noteID): "Note \(noteID) has no tag named \"\(name)\"."
        case .tagRenameNotCaseOnly(let from, let to):
            "Can't rename the tag \"\(from)\" to \"\(to)\": a tag's name may change only in case. Tag the notes with \"\(to)\" instead."
        case .unreadableAttachment(let path, let reason): "Can't read \(path): \(reason)."
        case .unsupportedAttachment(let path): "\(path) is not a PNG or JPEG picture; only pictures can be attached."
        case .impossibleImageSize(let path, let width, let height):
            "\(path) claims to be \(width)×\(height) pixels; a picture can be at most \(VSImageInfo.maximumPixelSize) pixels wide and high."
        case .cannotStoreAttachment(let path, let reason): "Can't store the attachment at \(path): \(reason)."
        case .invalidAttachmentName(let name): "\"\(name)\" is not a valid attachment ID (only letters, digits and hyphens)."
        case .databaseFolderMissing(let path): "The folder for the database does not exist: \(path)."
        case .notAVesperDatabase(let path): "\(path) is not a Vesper notes database (it was left as it was)."
        case .cannotCreateDatabase(let path, let reason): "Can't create the notes database at \(path): \(reason)."
        case .noFreeNoteID: "Could not find a free note ID."
        }
    }
}
