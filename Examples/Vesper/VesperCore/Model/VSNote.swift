import Foundation

// VSNote is generated from Vesper.plist: a note with everything the detail view and sync need —
// its text, dates, tags and attachments. It is uniqued: the store hands out at most one instance
// per uniqueID, so an edit made through the data controller is seen by everyone holding the note.
//
// Change notes through VSDataController's `userDid…` methods (or its sync-apply path), never by
// setting properties directly: those methods keep the modification dates and calculated values
// right. The setters are internal to VesperCore for that reason. truncatedText, links and
// thumbnailID are calculated from the text and attachments; the five per-property modification
// dates say when each value last changed, here or on another device, and sync merges property by
// property with them; modificationDate, set by user changes only, marks the note for upload.
extension VSNote {
    /// A new note, not yet saved. Use ``VSDataController/userDidCreateNote(text:tagNames:)``.
    convenience init(uniqueID: Int64, text: String, creationDate: Date) {
        self.init(uniqueID: uniqueID, archived: false, creationDate: creationDate, sortDate: creationDate, text: text)
    }

    /// Recomputes the values calculated from the text and the attachments.
    func recalculate() {
        truncatedText = VSNoteText.truncated(text)
        let found = VSNoteText.links(in: text)
        links = found.isEmpty ? nil : found
        thumbnailID = attachments.first(where: \.isImage)?.uniqueID
    }
}
