import Foundation

/// A note as a storage engine keeps it: every property but the text as it is, and the text
/// sealed with the ID of its key. Both engines map their rows to and from this form, so sealing
/// and opening live in one place.
struct NoteRecord: Sendable, Equatable {
    /// The note's properties; `text` is always nil here.
    private(set) var properties: SyncNote
    private(set) var sealedText: TextCipher.Sealed?

    /// The record for `note`, its text sealed afresh with the current key, so rows move to the
    /// newest key as they are written (lazy re-encryption).
    init(sealing note: SyncNote, cipher: TextCipher, userID: Int64) throws {
        properties = note
        properties.text = nil
        sealedText = try note.text.map { try cipher.seal($0, userID: userID, noteID: note.noteID) }
    }

    /// A row read back: `properties` without text, and the row's sealed text and key ID. A
    /// sealed text without its key ID is a corrupt row, never "no text": writing nil back would
    /// lose the text.
    init(properties: SyncNote, sealed: Data?, textKeyID: Int64?) throws {
        self.properties = properties
        self.properties.text = nil
        if let sealed {
            guard let textKeyID else {
                throw StorageError.corruptRow(table: "notes", reason: "note \(properties.noteID) has text but no key ID")
            }
            sealedText = TextCipher.Sealed(keyID: textKeyID, combined: sealed)
        }
    }

    /// The note with its text opened by the key the row names; a text that cannot be opened is
    /// an error.
    func opened(cipher: TextCipher, userID: Int64) throws -> SyncNote {
        var note = properties
        note.text = try sealedText.map { try cipher.open($0, userID: userID, noteID: properties.noteID) }
        return note
    }
}
