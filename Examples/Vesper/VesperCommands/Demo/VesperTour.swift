import Foundation
import QSData
import VesperCore

/// The steps of `vesper demo`, each showing one thing the store does, with its SQL count.
@MainActor
struct VesperTour {
    let vesper: VSDataController
    let folder: URL
    let bulkCount: Int
    private(set) var output = ""
    private let changes = ChangeTally()

    init(vesper: VSDataController, folder: URL, bulkCount: Int) {
        self.vesper = vesper
        self.folder = folder
        self.bulkCount = bulkCount
    }

    var store: QSStore { vesper.store }

    mutating func say(_ line: String = "") {
        output += line + "\n"
    }

    mutating func heading(_ number: Int, _ title: String) {
        say("\n\(number). \(title)")
    }

    mutating func run() async throws {
        say("Vesper demo: a fresh notes database in \(folder.path)")
        let observation = store.observeChanges { [changes] change in changes.record(change) }
        defer { observation.cancel() }

        // 1. Notes with ordered tags; tag names ignore case and spacing.
        heading(1, "Notes with ordered tags")
        let pistachio = try await vesper.userDidCreateNote(text: "Try the pistachio at Mario's", tagNames: ["ice cream", "Food"])
        let ideas = try await vesper.userDidCreateNote(
            text: "QSData idea: one statement marks 10,000 articles read. See https://inessential.com",
            tagNames: ["Work", "Ideas"])
        let sundae = try await vesper.userDidCreateNote(text: "Sundae bar for the party", tagNames: ["Party", "ICE  CREAM"])
        try await vesper.flush()
        for note in [pistachio, ideas, sundae] { say("   note \(note.uniqueID): \(note.text)  [\(tagNames(note))]") }
        say("   \"ice cream\" and \"ICE  CREAM\" are one tag: \(try vesper.tags().count) tags in all, \(try vesper.tags().map(\.name).joined(separator: ", "))")

        // 2. A picture attachment; the thumbnail follows.
        heading(2, "An attachment")
        let picture = folder.appendingPathComponent("sundae.png")
        try VesperTour.onePixelPNG.write(to: picture)
        let attachment = try vesper.userDidAddAttachment(fileAt: picture, to: sundae)
        try await vesper.flush()
        say("   attached \(attachment.mimeType) \(attachment.width)×\(attachment.height) to note \(sundae.uniqueID); its thumbnailID is now \(sundae.thumbnailID ?? "none")")
        say("   the file lives beside the database: \(vesper.attachmentStorage.file(for: attachment)?.url.path ?? "(none)")")

        // 3. The timeline reads the light type: six columns, no relationships. It is a live
        //    query: it stays current as later steps change notes (see steps 6 and 7).
        heading(3, "The live timeline, from VSTimelineNote (6 columns of the same notes table)")
        var liveTimeline: QSLiveQuery<VSTimelineNote>?
        let timelineLog = try await store.recordStatements { liveTimeline = try await vesper.liveTimeline() }
        guard let timeline = liveTimeline else { return }
        showTimeline(timeline)
        say("   \(statements(timelineLog)) for the whole timeline")

        // 4. Full notes bring their tags and attachments in a fixed number of statements.
        heading(4, "Full notes with tags and attachments")
        var notes: [VSNote] = []
        let notesLog = try await store.recordStatements { notes = try await vesper.allNotes() }
        say("   \(notes.count) notes in \(statements(notesLog)): the notes, each lookup table, the attachments; tags come from the cache")
        say("   uniquing: the fetched note \(sundae.uniqueID) is the very instance we hold: \(notes.contains { $0 === sundae })")

        // 5. Tags are cached permanently and loaded at startup.
        heading(5, "The tag cache")
        var cachedTags: [VSTag] = []
        var iceCream: VSTag?
        let tagLog = try await store.recordStatements {
            cachedTags = try vesper.tags()
            iceCream = try await store.fetch(VSTag.self, id: "ice cream")
        }
        say("   \(cachedTags.count) tags and a fetch of \"\(iceCream?.name ?? "?")\" by uniqueID: \(statements(tagLog))")

        // 6. A case-only rename shows on every note at once; other renames are refused.
        heading(6, "Renaming a tag (case only)")
        try vesper.userDidRenameTag("ice cream", to: "Ice Cream")
        try await vesper.flush()
        for note in [pistachio, sundae] { say("   note \(note.uniqueID): [\(tagNames(note))]") }
        say("   still \(try vesper.tags().count) tags, no duplicate")
        let renameLog = try await store.recordStatements {
            try vesper.userDidRenameTag("Party", to: "party")
            try await timeline.waitUntilCurrent()
        }
        say("   the live timeline loads no tags, so a rename costs it nothing: \(statements(renameLog)), all the tag's own save, and \(timeline.refetchCount) re-fetches")
        do {
            try vesper.userDidRenameTag("Ice Cream", to: "Gelato")
        } catch let error as VesperError {
            say("   refused: \(error)")
        }

        // 7. Archiving is one UPDATE; live notes reflect it at once.
        heading(7, "Archiving")
        let archiveLog = try await store.recordStatements { try vesper.userDidMarkAsArchived([pistachio]) }
        say("   archived note \(pistachio.uniqueID) in \(statements(archiveLog)); the live note says archived = \(pistachio.archived)")
        say("   timeline: \(try await vesper.timeline().count) notes; with archived: \(try await vesper.timeline(includeArchived: true).count)")
        let sundaeText = "Sundae bar for the party, with pistachio"
        try await timeline.waitUntilCurrent()
        let refetchesBefore = timeline.refetchCount
        let liveLog = try await store.recordStatements {
            try vesper.userDidMarkAsUnarchived([pistachio])
            try vesper.userDidUpdateText(sundaeText, of: sundae)
            try await timeline.waitUntilCurrent()
        }
        say("   unarchived note \(pistachio.uniqueID) and edited note \(sundae.uniqueID); the live timeline, fetched again once for both:")
        showTimeline(timeline)
        say("   \(statements(liveLog)) in all: the two writes and \(timeline.refetchCount - refetchesBefore) re-fetch of the timeline")

        // 8. Full-text search through the notes' FTS5 index, kept current by triggers.
        heading(8, "Full-text search")
        var found: [VSSearchResult] = []
        let searchLog = try await store.recordStatements { found = try await vesper.search("pistachio") }
        for result in found { say("   \(result.note.uniqueID)  \(result.snippet)") }
        say("   best match first, in \(statements(searchLog)); typed text is never FTS5 syntax: \"(pistachio\" finds \(try await vesper.search("\"(pistachio").count)")
        timeline.cancel()  // the demo is done with it: from here on, changes to notes cost it nothing

        // 9. Bulk delete: one statement for the notes, one per lookup table, whatever the number.
        heading(9, "Bulk delete")
        let drafts = (1...bulkCount).map { (text: "Generated note \($0)", tagNames: ["Generated", $0.isMultiple(of: 2) ? "Even" : "Odd"]) }
        let generated = try await vesper.userDidCreateNotes(drafts)
        try await vesper.flush()
        say("   made \(generated.count) notes with two tags each")
        let deleteLog = try await store.recordStatements { try await vesper.userDidDeleteNotes(generated) }
        say("   deleted them in \(statements(deleteLog)), in one transaction:")
        for statement in deleteLog.statements { say("     \(statement)") }
        let recorded = try await vesper.deletedNoteIDs().count
        let lookups = try await store.fetchRows("SELECT count(*) FROM tagsNotesLookup")
        say("   deletedNotes now holds \(recorded) IDs (recorded by the schema's trigger in the same transaction)")
        say("   tag lookup rows left: \(lookups.first?.first.map(String.init(describing:)) ?? "?") (the three remaining notes' tags)")

        // 10. Every change was observed, with its source.
        heading(10, "Change notifications")
        try await vesper.flush()
        say("   observed \(changes.summary)")
    }

    private mutating func showTimeline(_ timeline: QSLiveQuery<VSTimelineNote>) {
        for note in timeline.objects { say("   \(note.uniqueID)  \(note.truncatedText ?? "")\(note.thumbnailID == nil ? "" : "  [picture]")") }
    }

    private func tagNames(_ note: VSNote) -> String {
        note.tags.map(\.name).joined(separator: ", ")
    }

    private func statements(_ log: QSStatementLog) -> String {
        "\(log.count) SQL statement\(log.count == 1 ? "" : "s")"
    }

    /// A 1×1 transparent PNG.
    static let onePixelPNG = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
        0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
        0x42, 0x60, 0x82,
    ])
}

/// Counts the changes the demo observes.
@MainActor
final class ChangeTally {
    private var count = 0
    private var inserted = 0
    private var updated = 0
    private var deleted = 0
    private var fromSync = 0

    func record(_ change: QSChange) {
        count += 1
        inserted += change.insertedIDs(of: VSNote.self).count
        updated += change.updatedIDs(of: VSNote.self).count
        deleted += change.deletedIDs(of: VSNote.self).count
        if change.source == .sync { fromSync += 1 }
    }

    var summary: String {
        "\(count) changes (\(fromSync) from sync): notes inserted \(inserted), updated \(updated), deleted \(deleted)"
    }
}
