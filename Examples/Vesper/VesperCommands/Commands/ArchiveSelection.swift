import VesperCore

/// What `archive` and `unarchive` share: the notes they name and the one bulk update.
extension NoteIDs {
    /// Archives or unarchives the named notes (one statement) and reports them.
    @MainActor
    func setArchived(_ archived: Bool, in vesper: VSDataController) async throws -> CommandOutput {
        let notes = try await vesper.notes(ids: ids)
        if archived {
            try vesper.userDidMarkAsArchived(notes)
        } else {
            try vesper.userDidMarkAsUnarchived(notes)
        }
        return CommandOutput(
            text: "\(archived ? "Archived" : "Unarchived") \(TextFormat.count(notes.count, "note")).",
            json: notes.map { VesperJSON.Note($0, storage: vesper.attachmentStorage) })
    }
}
