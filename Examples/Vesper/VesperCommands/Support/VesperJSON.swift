import CommandLineTool
import Foundation
import VesperCore
import VesperSync

/// The JSON `vesper --json` and `vesper export` print. Public and Decodable so that scripts
/// and tests can read it back. Dates are ISO 8601.
public enum VesperJSON {
    /// A note with everything it holds.
    public struct Note: Codable, Equatable, Sendable {
        public var id: Int64
        public var text: String
        public var truncatedText: String?
        public var links: [String]
        public var thumbnailID: String?
        public var archived: Bool
        public var creationDate: Date
        public var sortDate: Date
        public var modificationDate: Date?
        public var textModificationDate: Date?
        public var sortDateModificationDate: Date?
        public var archivedModificationDate: Date?
        public var tagsModificationDate: Date?
        public var attachmentsModificationDate: Date?
        public var tags: [String]
        public var attachments: [Attachment]
    }

    /// A timeline row.
    public struct TimelineNote: Codable, Equatable, Sendable {
        public var id: Int64
        public var truncatedText: String?
        public var links: [String]
        public var thumbnailID: String?
        public var archived: Bool
        public var sortDate: Date
    }

    /// A note a search found, with the passage that matched (matched words in [brackets]).
    public struct SearchResult: Codable, Equatable, Sendable {
        public var note: TimelineNote
        public var snippet: String
    }

    /// An attachment and where its file is (`path` is nil for an attachment ID that names no file).
    public struct Attachment: Codable, Equatable, Sendable {
        public var id: String
        public var mimeType: String
        public var width: Int64
        public var height: Int64
        public var path: String?
    }

    /// A tag and how many notes have it.
    public struct Tag: Codable, Equatable, Sendable {
        public var id: String
        public var name: String
        public var noteCount: Int
    }

    /// What `delete` deleted.
    public struct Deleted: Codable, Equatable, Sendable {
        public var deleted: [Int64]
    }

    /// Everything `export` writes.
    public struct Export: Codable, Equatable, Sendable {
        public var notes: [Note]
        public var tags: [Tag]
        public var deletedNoteIDs: [Int64]
    }

    /// What `account … --json` prints.
    public struct AccountStatus: Codable, Equatable, Sendable {
        public var loggedIn: Bool
        public var server: String?
        public var username: String?
        public var lastSyncDate: Date?
        public var clockSkew: Double
        public var notesToUpload: Int
        public var deletionsToUpload: Int
        public var accountFile: String
    }

    /// A decoder for what `vesper` prints: the JSON every tool prints (``JSONOutput``).
    public static func decoder() -> JSONDecoder {
        JSONOutput.decoder()
    }
}

extension VesperJSON.Note {
    @MainActor init(_ note: VSNote, storage: VSAttachmentStorage) {
        self.init(
            id: note.uniqueID, text: note.text, truncatedText: note.truncatedText, links: note.links ?? [],
            thumbnailID: note.thumbnailID, archived: note.archived, creationDate: note.creationDate, sortDate: note.sortDate,
            modificationDate: note.modificationDate, textModificationDate: note.textModificationDate,
            sortDateModificationDate: note.sortDateModificationDate, archivedModificationDate: note.archivedModificationDate,
            tagsModificationDate: note.tagsModificationDate, attachmentsModificationDate: note.attachmentsModificationDate,
            tags: note.tags.map(\.name),
            attachments: note.attachments.map { VesperJSON.Attachment($0, storage: storage) })
    }
}

extension VesperJSON.AccountStatus {
    @MainActor init(_ account: VSAccount) async throws {
        self.init(
            loggedIn: account.isSignedIn, server: account.state?.server.absoluteString, username: account.state?.username,
            lastSyncDate: account.state?.lastSyncDate, clockSkew: account.state?.clockSkew ?? 0,
            notesToUpload: try await account.dataController.countOfNotesToUpload(),
            deletionsToUpload: try await account.dataController.deletedNoteIDs().count,
            accountFile: account.file.url.path)
    }
}

extension VesperJSON.TimelineNote {
    init(_ note: VSTimelineNote) {
        self.init(id: note.uniqueID, truncatedText: note.truncatedText, links: note.links ?? [],
                  thumbnailID: note.thumbnailID, archived: note.archived, sortDate: note.sortDate)
    }
}

extension VesperJSON.SearchResult {
    init(_ result: VSSearchResult) {
        self.init(note: VesperJSON.TimelineNote(result.note), snippet: result.snippet)
    }
}

extension VesperJSON.Attachment {
    init(_ attachment: VSAttachment, storage: VSAttachmentStorage) {
        self.init(id: attachment.uniqueID, mimeType: attachment.mimeType, width: attachment.width,
                  height: attachment.height, path: storage.file(for: attachment)?.url.path)
    }
}

extension VesperJSON.Tag {
    @MainActor init(_ tag: VSTag, noteCount: Int) {
        self.init(id: tag.uniqueID, name: tag.name, noteCount: noteCount)
    }
}
