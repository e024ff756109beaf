import Foundation
import QSData
import Testing

/// A bulk update sets only the columns it changed on each held instance, through the type's
/// `update(column:from:)`, when the type sets them alone; otherwise it encodes the instance and
/// calls `update(from:)` with the whole row.
@MainActor
@Suite struct ColumnUpdateTests {
    @Test func aBulkUpdateSetsEachChangedColumnAloneOnTheInstancesHeld() async throws {
        let (store, notes) = try await openStore(ColumnNote.self, notes: 20) { ColumnNote(uniqueID: $0, text: "note \($0)") }
        try store.update(ColumnNote.self, ids: Array(0..<10), set: ["archived": true, "text": "bulk"])
        for note in notes[..<10] {
            #expect(note.archived && note.text == "bulk")
            #expect(note.columnsSet.sorted() == ["archived", "text"])
            #expect(note.wholeRowUpdates == 0)
        }
        for note in notes[10...] {
            #expect(!note.archived && note.text == "note \(note.uniqueID)")
            #expect(note.columnsSet.isEmpty && note.wholeRowUpdates == 0)
        }
        try await store.flush()
        #expect(try await store.count(ColumnNote.self, where: "archived = 1 AND text = 'bulk'") == 10)

        // Saved as they are, they write nothing: the rows, changed in place, are read once in
        // one statement, and known again after it.
        let statements = try await store.recordStatements {
            try store.save(notes)
            try await store.flush()
        }
        #expect(statements.count == 1 && statements.statements.allSatisfy { $0.hasPrefix("SELECT") }, "\(statements)")
        let again = try await store.recordStatements {
            try store.save(notes)
            try await store.flush()
        }
        #expect(again.count == 0, "\(again)")
        try await store.close()
    }

    @Test func aColumnTheTypeDoesNotSetAloneGetsTheWholeRow() async throws {
        let (store, notes) = try await openStore(ColumnNote.self, notes: 5) {
            ColumnNote(uniqueID: $0, text: "note \($0)", setsAlone: ["text", "archived"])
        }
        let later = Fixtures.referenceDate.addingTimeInterval(60)
        try store.update(ColumnNote.self, ids: Array(0..<5), set: ["archived": true, "sortDate": later])
        for note in notes {
            #expect(note.archived && note.sortDate == later && note.text == "note \(note.uniqueID)")
            #expect(note.wholeRowUpdates == 1)
        }
        // Once the first instance has said so, the others are not asked.
        #expect(notes.dropFirst().allSatisfy { $0.columnsAsked == 0 })
        try await store.flush()
        #expect(try await store.count(ColumnNote.self, where: "archived = 1 AND sortDate = ?", arguments: [.real(later.timeIntervalSince1970)]) == 5)

        // A column it does set alone still goes alone.
        try store.update(ColumnNote.self, ids: [0, 1], set: ["text": "alone"])
        #expect(notes[0].text == "alone" && notes[0].wholeRowUpdates == 1)
        try await store.flush()
        try await store.close()
    }

    @Test func anUpdateWhereKeepsTheColumnAnUpdateByIDSetAfterIt() async throws {
        let (store, notes) = try await openStore(ColumnNote.self, notes: 1) { ColumnNote(uniqueID: $0, text: "first") }
        let note = notes[0]
        try store.update(ColumnNote.self, where: "uniqueID = 0", set: ["text": "by condition", "archived": true])
        try store.update(ColumnNote.self, ids: [0], set: ["text": "by ID"])
        #expect(note.text == "by ID" && !note.archived)
        try await store.flush()
        #expect(note.text == "by ID" && note.archived)
        #expect(note.wholeRowUpdates == 0)
        #expect(try await store.fetchRows("SELECT text, archived FROM notes WHERE uniqueID = 0") == [[.text("by ID"), .integer(1)]])
        try await store.close()
    }

    @Test func anInstanceThatMarksItsChangesKeepsItsOwnMarks() async throws {
        let (store, notes) = try await openStore(MarkingColumnNote.self, notes: 3) { MarkingColumnNote(uniqueID: $0, text: "note \($0)") }
        notes[0].text = "edited"
        try store.update(MarkingColumnNote.self, ids: [0, 1, 2], set: ["archived": true])
        #expect(notes.allSatisfy { $0.archived })
        #expect(notes[0].changedProperties.propertyNames == ["text"])
        #expect(notes[1].changedProperties.isEmpty && notes[2].changedProperties.isEmpty)
        try await store.flush()

        // The edit made before the update is still saved, and only it.
        let statements = try await store.recordStatements {
            try store.save(notes)
            try await store.flush()
        }
        #expect(statements.count == 1, "\(statements)")
        #expect(try await store.fetchRows("SELECT text, archived FROM notes ORDER BY uniqueID") == [
            [.text("edited"), .integer(1)], [.text("note 1"), .integer(1)], [.text("note 2"), .integer(1)],
        ])
        try await store.close()
    }

    @Test func anInstanceThatRefusesAColumnFailsTheUpdateAndWritesNothing() async throws {
        let (store, notes) = try await openStore(ColumnNote.self, notes: 4) { ColumnNote(uniqueID: $0, text: "note \($0)") }
        notes[2].refusesArchiving = true
        #expect(throws: ColumnNote.RefusesToBeArchived.self) {
            try store.update(ColumnNote.self, ids: Array(0..<4), set: ["archived": true])
        }
        try await store.flush()
        #expect(notes.allSatisfy { !$0.archived }, "brought back to what the database holds")
        #expect(try await store.count(ColumnNote.self, where: "archived = 1") == 0)
        try await store.close()
    }

    private func openStore<Note: QSDataObject>(
        _ type: Note.Type, notes count: Int, make: (Int64) -> Note
    ) async throws -> (QSStore, [Note]) {
        let store = try await QSStore.open(
            at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(),
            schema: QSSchema(creationSQL: Fixtures.schemaSQL), types: [Note.self, Tag.self, Attachment.self])
        let notes = (0..<Int64(count)).map(make)
        try store.save(notes)
        try await store.flush()
        return (store, notes)
    }
}

/// A note that sets the columns `setsAlone` names alone (every column, unless a test says
/// otherwise for all the notes it makes), and counts how the store patched it.
final class ColumnNote: QSUpdatableObject {
    static let modelName = "Note"
    struct RefusesToBeArchived: Error {}

    let uniqueID: Int64
    var text: String
    var archived = false
    var sortDate = Fixtures.referenceDate
    var links: [String]?
    var tags: [Tag] = []
    var attachments: [Attachment] = []
    let setsAlone: Set<String>
    var columnsAsked = 0
    var columnsSet: [String] = []
    var wholeRowUpdates = 0
    var refusesArchiving = false

    init(uniqueID: Int64, text: String, setsAlone: Set<String> = ["text", "archived", "sortDate", "links"]) {
        self.uniqueID = uniqueID
        self.text = text
        self.setsAlone = setsAlone
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        text = try row["text"]
        archived = try row["archived"]
        sortDate = try row["sortDate"]
        links = try row["links"]
        tags = try row.related("tags")
        attachments = try row.related("attachments")
        setsAlone = ["text", "archived", "sortDate", "links"]
    }

    func update(from row: QSRow) throws {
        wholeRowUpdates += 1
        text = try row["text"]
        archived = try row["archived"]
        sortDate = try row["sortDate"]
        links = try row["links"]
        tags = try row.related("tags")
        attachments = try row.related("attachments")
    }

    func update(column: String, from row: QSRow) throws -> Bool {
        columnsAsked += 1
        guard setsAlone.contains(column) else { return false }
        switch column {
        case "text": text = try row["text"]
        case "archived":
            let archived: Bool = try row["archived"]
            if archived, refusesArchiving { throw RefusesToBeArchived() }
            self.archived = archived
        case "sortDate": sortDate = try row["sortDate"]
        case "links": links = try row["links"]
        default: return false
        }
        columnsSet.append(column)
        return true
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["text"] = text
        row["archived"] = archived
        row["sortDate"] = sortDate
        row["links"] = links
        row.setRelated("tags", tags)
        row.setRelated("attachments", attachments)
    }
}

/// A note that marks what the app set, and sets every column alone.
final class MarkingColumnNote: QSChangeTrackingObject {
    static let modelName = "Note"

    let uniqueID: Int64
    var text: String { didSet { changedProperties.insert("text", from: oldValue, to: text) } }
    var archived = false { didSet { changedProperties.insert("archived", from: oldValue, to: archived) } }
    var sortDate = Fixtures.referenceDate { didSet { changedProperties.insert("sortDate", from: oldValue, to: sortDate) } }
    var changedProperties = QSChangedProperties()

    var links: [String]?
    var tags: [Tag] = []
    var attachments: [Attachment] = []

    init(uniqueID: Int64, text: String) {
        self.uniqueID = uniqueID
        self.text = text
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        text = try row["text"]
        archived = try row["archived"]
        sortDate = try row["sortDate"]
        links = try row["links"]
        tags = try row.related("tags")
        attachments = try row.related("attachments")
    }

    func update(from row: QSRow) throws {
        text = try row["text"]
        archived = try row["archived"]
        sortDate = try row["sortDate"]
        links = try row["links"]
        tags = try row.related("tags")
        attachments = try row.related("attachments")
    }

    func update(column: String, from row: QSRow) throws -> Bool {
        switch column {
        case "text": text = try row["text"]
        case "archived": archived = try row["archived"]
        case "sortDate": sortDate = try row["sortDate"]
        default: return false
        }
        return true
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["text"] = text
        row["archived"] = archived
        row["sortDate"] = sortDate
        row["links"] = links
        row.setRelated("tags", tags)
        row.setRelated("attachments", attachments)
    }
}
