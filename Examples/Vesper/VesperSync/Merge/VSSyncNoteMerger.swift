import Foundation
import VesperCore

/// Merges the notes the server returns into the local notes (PROTOCOL.md, "Notes"), property by property,
/// through the sync-apply path, so the local modification date never moves.
///
/// Rules, each property on its own: the server's value wins when its modification date is
/// later than the local one (millisecond precision, as the server compares; a missing server
/// date never wins, a missing local date always loses), and then both the value and the date
/// are copied (the sort date's too, which the original client forgot). Text, archived, sort date, the
/// ordered tag list and the attachment list are the five properties; the creation date never
/// changes. A note unknown here is created with the server's values and dates and no local
/// modification date, so it is not uploaded back. Notes deleted here but not yet
/// acknowledged are skipped, so a download can't resurrect them. The merge is one background
/// write: reads meanwhile see the notes as they were until it commits.
@MainActor
public struct VSSyncNoteMerger {
    public let dataController: VSDataController

    public init(dataController: VSDataController) {
        self.dataController = dataController
    }

    /// What a merge did.
    public struct Outcome: Equatable, Sendable {
        public var created: [Int64] = []
        public var updated: [Int64] = []
        public var skippedAsDeleted: [Int64] = []
    }

    public func merge(_ serverNotes: [VSSyncNote], pendingDeletions: Set<Int64>) async throws -> Outcome {
        var outcome = Outcome()
        let candidates = serverNotes.filter { $0.noteID != 0 }
        let local = try await dataController.store.fetch(VSNote.self, ids: candidates.map(\.noteID))
        let localByID = Dictionary(local.map { ($0.uniqueID, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<Int64> = []
        // One background write: the user's reads don't wait for a large download to be written,
        // and see all of it or none.
        try dataController.store.performInBackground {
            for serverNote in candidates where seen.insert(serverNote.noteID).inserted {
                if pendingDeletions.contains(serverNote.noteID) {
                    outcome.skippedAsDeleted.append(serverNote.noteID)
                } else if let note = localByID[serverNote.noteID] {
                    let values = Self.winningValues(of: serverNote, over: note)
                    guard values.hasAny else { continue }
                    try dataController.applySyncValues(values, to: note)
                    outcome.updated.append(note.uniqueID)
                } else {
                    let creationDate = serverNote.creationDate ?? serverNote.sortDate ?? VSSyncNote.oldDate
                    try dataController.applySyncNewNote(
                        uniqueID: serverNote.noteID, creationDate: creationDate, values: Self.allValues(of: serverNote))
                    outcome.created.append(serverNote.noteID)
                }
            }
        }
        return outcome
    }

    /// The properties of `serverNote` whose dates beat the local note's.
    static func winningValues(of serverNote: VSSyncNote, over note: VSNote) -> VSNoteServerValues {
        var values = VSNoteServerValues()
        if VSSyncDate.serverWins(serverNote.textModificationDate, over: note.textModificationDate) {
            values.text = VSServerValue(serverNote.text ?? "", modificationDate: serverNote.textModificationDate)
        }
        if VSSyncDate.serverWins(serverNote.archivedModificationDate, over: note.archivedModificationDate) {
            values.archived = VSServerValue(serverNote.archived, modificationDate: serverNote.archivedModificationDate)
        }
        if VSSyncDate.serverWins(serverNote.sortDateModificationDate, over: note.sortDateModificationDate), let sortDate = serverNote.sortDate {
            values.sortDate = VSServerValue(sortDate, modificationDate: serverNote.sortDateModificationDate)
        }
        if VSSyncDate.serverWins(serverNote.tagsModificationDate, over: note.tagsModificationDate) {
            values.tagNames = VSServerValue(serverNote.tagNames, modificationDate: serverNote.tagsModificationDate)
        }
        if VSSyncDate.serverWins(serverNote.attachmentsModificationDate, over: note.attachmentsModificationDate) {
            values.attachments = VSServerValue(serverNote.attachments.map(\.attachment), modificationDate: serverNote.attachmentsModificationDate)
        }
        return values
    }

    /// Every property of `serverNote`, with its date (which may be nil), for a note new here.
    static func allValues(of serverNote: VSSyncNote) -> VSNoteServerValues {
        VSNoteServerValues(
            text: VSServerValue(serverNote.text ?? "", modificationDate: serverNote.textModificationDate),
            sortDate: VSServerValue(serverNote.sortDate ?? serverNote.creationDate ?? VSSyncNote.oldDate,
                                    modificationDate: serverNote.sortDateModificationDate),
            archived: VSServerValue(serverNote.archived, modificationDate: serverNote.archivedModificationDate),
            tagNames: VSServerValue(serverNote.tagNames, modificationDate: serverNote.tagsModificationDate),
            attachments: VSServerValue(serverNote.attachments.map(\.attachment), modificationDate: serverNote.attachmentsModificationDate))
    }
}

extension VSNoteServerValues {
    /// Whether any property is set.
    var hasAny: Bool {
        text != nil || sortDate != nil || archived != nil || tagNames != nil || attachments != nil
    }
}
