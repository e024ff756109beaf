import Foundation

/// A note as a storage engine keeps it: the text sealed with the ID of its key. Both engines
/// map their rows to and from this form, so sealing and opening live in one place.
struct NoteRecord: Sendable, Equatable {
    var noteID: Int64
    var archived: Bool?
    var sealedText: TextCipher.Sealed?
    var creationDate: Int64
    var sortDate: Int64
    var textModificationDate: Int64?
    var archivedModificationDate: Int64?
    var sortDateModificationDate: Int64?
    var tagsModificationDate: Int64?
    var attachmentsModificationDate: Int64?
    var tags: String?
    var attachments: Data?

    /// The record for `note`, its text sealed afresh with the current key, so rows move to the
    /// newest key as they are written (lazy re-encryption).
    init(sealing note: SyncNote, cipher: TextCipher, userID: Int64) throws {
        noteID = note.noteID
        archived = note.archived
        sealedText = try note.text.map { try cipher.seal($0, userID: userID, noteID: note.noteID) }
        creationDate = note.creationDate
        sortDate = note.sortDate
        textModificationDate = note.textModificationDate
        archivedModificationDate = note.archivedModificationDate
        sortDateModificationDate = note.sortDateModificationDate
        tagsModificationDate = note.tagsModificationDate
        attachmentsModificationDate = note.attachmentsModificationDate
        tags = note.tags
        attachments = note.attachments
    }

    /// A row read back. A sealed text without its key ID is a corrupt row, never "no text":
    /// writing nil back would lose the text.
    init(
        noteID: Int64, archived: Bool?, sealed: Data?, textKeyID: Int64?, creationDate: Int64, sortDate: Int64,
        textModificationDate: Int64?, archivedModificationDate: Int64?, sortDateModificationDate: Int64?,
        tagsModificationDate: Int64?, attachmentsModificationDate: Int64?, tags: String?, attachments: Data?
    ) throws {
        self.noteID = noteID
        self.archived = archived
        if let sealed {
            guard let textKeyID else {
                throw StorageError.corruptRow(table: "notes", reason: "note \(noteID) has text but no key ID")
            }
            sealedText = TextCipher.Sealed(keyID: textKeyID, combined: sealed)
        }
        self.creationDate = creationDate
        self.sortDate = sortDate
        self.textModificationDate = textModificationDate
        self.archivedModificationDate = archivedModificationDate
        self.sortDateModificationDate = sortDateModificationDate
        self.tagsModificationDate = tagsModificationDate
        self.attachmentsModificationDate = attachmentsModificationDate
        self.tags = tags
        self.attachments = attachments
    }

    /// The note with its text opened by the key the row names; a text that cannot be opened is
    /// an error.
    func opened(cipher: TextCipher, userID: Int64) throws -> SyncNote {
        SyncNote(
            noteID: noteID,
            archived: archived,
            text: try sealedText.map { try cipher.open($0, userID: userID, noteID: noteID) },
            creationDate: creationDate,
            sortDate: sortDate,
            textModificationDate: textModificationDate,
            archivedModificationDate: archivedModificationDate,
            sortDateModificationDate: sortDateModificationDate,
            tagsModificationDate: tagsModificationDate,
            attachmentsModificationDate: attachmentsModificationDate,
            tags: tags,
            attachments: attachments)
    }
}
