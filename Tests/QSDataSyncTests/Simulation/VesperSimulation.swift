import Foundation
import QSData
import QSDataSync
import QSDataSyncTestSupport
import TestSupport

/// The sync simulation on Vesper's own data model, marked synced: notes with ordered tags and
/// attachments, tags named by their normalised names (their uniqueIDs) and unique by name.
/// Replicas write through SQL, as another writer of the file would, through the same
/// misbehaving network as ``SyncSimulation``; once the network heals they must agree.
@MainActor
final class VesperSimulation {
    let seed: UInt64
    private var random: SeededGenerator
    private let network: SimulatedNetwork
    private var stores: [QSStore] = []
    private var syncs: [QSSync] = []
    private var urls: [URL] = []
    private(set) var journal: [String] = []
    private var createdNotes: Set<Int64> = []
    private var deletedNotes: Set<Int64> = []
    private var nextID: Int64 = 1
    static let tagNames = ["Paris", "paris", "Work", " work", "Home", "Travel", "TRAVEL"]

    init(seed: UInt64) {
        self.seed = seed
        random = SeededGenerator(seed: seed ^ 0x7665_7370_6572)
        network = SimulatedNetwork(seed: seed)
    }

    /// Vesper's model with its notes, tags and attachments synced (and tags unique by name).
    static func syncedModel() throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("DataModels/Vesper.plist")
        var model = try String(contentsOf: url, encoding: .utf8)
        for table in ["notes", "attachments"] {
            model = model.replacingOccurrences(of: "<string>\(table)</string>", with: "<string>\(table)</string><key>synced</key><true/>")
        }
        // An attachment's bytes travel with it, as a blob.
        model = model.replacingOccurrences(
            of: "<string>attachments</string><key>synced</key><true/>",
            with: "<string>attachments</string><key>synced</key><true/><key>syncedBlobs</key><dict><key>bytes</key><string>eager</string></dict>")
            .replacingOccurrences(of: "<key>mimeType</key>", with: "<key>bytes</key><string>data?</string><key>mimeType</key>")
        return model.replacingOccurrences(
            of: "<string>tags</string>\n", with: "<string>tags</string><key>synced</key><true/><key>uniqueKey</key><string>name</string>\n")
    }

    static func schema() throws -> QSSchema {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("DataModels")
        let vesper = try QSSchema(creationFile: folder.appendingPathComponent("Vesper.sql"), migrationsFolder: folder.appendingPathComponent("VesperMigrations"))
        return try QSSchema(creationSQL: vesper.creationSQL + "\nALTER TABLE attachments ADD COLUMN bytes BLOB;", migrations: vesper.migrations)
    }

    func run(steps: Int = 80) async throws -> [String] {
        let model = try QSDataModel(propertyList: Data(try Self.syncedModel().utf8), fileName: "Vesper.plist")
        let schema = try Self.schema()
        for index in 0..<3 {
            let url = TestRunFolder.newFile("qsdata-vesper-sim", suffix: ".sqlite")
            let store = try await QSStore.open(at: url, model: model, schema: schema, types: [])
            var ids = SeededGenerator(seed: seed &+ UInt64(index) &* 104_729)
            urls.append(url)
            stores.append(store)
            syncs.append(try await QSSync.attach(
                to: store, transport: SimulatedLink(replica: index, network: network), newReplicaID: SyncReplicaID.random(using: &ids)))
        }
        defer {
            let stores = stores, urls = urls
            Task { @MainActor in
                for store in stores { try? await store.close() }
                for url in urls { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
            }
        }
        for step in 0..<steps { try await takeStep(step) }
        journal.append("the network heals")
        try await network.heal(syncing: syncs) { round, index, report in
            journal.append("round \(round): replica \(index) pushed \(report.pushedObjects), pulled \(report.pulledObjects)")
        }
        return try await differences()
    }

    private func takeStep(_ step: Int) async throws {
        let index = Int(random.next() % 3)
        let store = stores[index]
        func note(_ what: String) { journal.append("step \(step): replica \(index) \(what)") }
        switch random.next() % 100 {
        case 0..<18:
            let id = newID()
            createdNotes.insert(id)
            var tags: [String] = []
            for _ in 0..<Int(random.next() % 3) {
                let name = someTagName()
                if !tags.contains(where: { Self.tagID($0) == Self.tagID(name) }) { tags.append(name) }
            }
            let tagged = tags
            note("creates note \(id) tagged \(tags)")
            try await store.writeAndWait { db in
                try db.execute("INSERT INTO notes (uniqueID, text, creationDate, sortDate) VALUES (?, ?, ?, ?)",
                               [.integer(id), .text("note \(id)"), .real(Double(step)), .real(Double(step))])
                try Self.setTags(tagged, of: id, on: db)
            }
        case 18..<30:
            guard let id = try await someNote(on: store) else { return }
            note("edits note \(id)")
            try await store.execute("UPDATE notes SET text = ? WHERE uniqueID = ?", [.text("edited \(step)@\(index)"), .integer(id)])
        case 30..<45:
            guard let id = try await someNote(on: store) else { return }
            var tags = try await tagNames(of: id, on: store)
            let name = someTagName()
            guard !tags.contains(where: { Self.tagID($0) == Self.tagID(name) }) else { return }
            tags.insert(name, at: Int(random.next() % UInt64(tags.count + 1)))
            note("tags note \(id) \(tags)")
            let tagged = tags
            try await store.writeAndWait { db in try Self.setTags(tagged, of: id, on: db) }
        case 45..<53:
            guard let id = try await someNote(on: store) else { return }
            var tags = try await tagNames(of: id, on: store)
            guard !tags.isEmpty else { return }
            if random.next() % 2 == 0 { tags.remove(at: Int(random.next() % UInt64(tags.count))) } else { tags.shuffle(using: &random) }
            note("retags note \(id) \(tags)")
            let retagged = tags
            try await store.writeAndWait { db in try Self.setTags(retagged, of: id, on: db) }
        case 53..<60:
            guard let id = try await someNote(on: store) else { return }
            let attachment = "attachment-\(newID())"
            // A few pictures, each attached to many notes: a little over 1 MiB, two parts each.
            let picture = UInt8(random.next() % 3)
            let bytes = Data((0..<(SyncProtocol.blobPartSize + 4_096)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ Int(picture)) })
            note("attaches \(attachment) (picture \(picture)) to note \(id)")
            try await store.writeAndWait { db in
                try db.execute("INSERT INTO attachments (uniqueID, mimeType, height, width, bytes) VALUES (?, 'image/png', 10, 20, ?)",
                               [.text(attachment), .blob(bytes)])
                let next = try db.fetchValue("SELECT coalesce(max(ix), 0) + 1024 FROM attachmentsNotesLookup WHERE noteID = ?", [.integer(id)])
                try db.execute("INSERT INTO attachmentsNotesLookup (attachmentID, noteID, ix) VALUES (?, ?, ?)", [.text(attachment), .integer(id), next ?? .integer(1024)])
            }
        case 60..<67:
            guard let id = try await someNote(on: store) else { return }
            note("deletes note \(id)")
            deletedNotes.insert(id)
            try await store.writeAndWait { db in
                try db.execute("DELETE FROM tagsNotesLookup WHERE noteID = ?", [.integer(id)])
                try db.execute("DELETE FROM attachmentsNotesLookup WHERE noteID = ?", [.integer(id)])
                try db.execute("DELETE FROM notes WHERE uniqueID = ?", [.integer(id)])
            }
        case 67..<72:
            if network.partitioned.contains(index) {
                network.partitioned.remove(index)
                note("rejoins the network")
            } else {
                network.partitioned.insert(index)
                note("is cut off")
            }
        case 72..<75:
            note("late pushes arrive")
            try await network.deliverHeldPushes()
        default:
            note("syncs")
            do {
                try await syncs[index].sync()
            } catch let error as QSSyncError {
                journal.append("    sync failed: \(error)")
            }
        }
    }

    /// A tag's uniqueID: its name with whitespace collapsed, lower-cased (as Vesper makes it).
    nonisolated static func tagID(_ name: String) -> String {
        name.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }

    /// Makes `names` the note's tags, in order (creating tags that don't exist).
    nonisolated private static func setTags(_ names: [String], of note: Int64, on db: SQLiteConnection) throws {
        try db.execute("DELETE FROM tagsNotesLookup WHERE noteID = ?", [.integer(note)])
        for (offset, name) in names.enumerated() {
            try db.execute("INSERT INTO tags (uniqueID, name) VALUES (?, ?) ON CONFLICT (uniqueID) DO NOTHING", [.text(tagID(name)), .text(name)])
            try db.execute("INSERT INTO tagsNotesLookup (tagID, noteID, ix) VALUES (?, ?, ?)",
                           [.text(tagID(name)), .integer(note), .integer(Int64(offset + 1) * 1024)])
        }
    }

    private func someTagName() -> String { Self.tagNames[Int(random.next() % UInt64(Self.tagNames.count))] }

    private func newID() -> Int64 {
        defer { nextID += 1 }
        return nextID
    }

    private func someNote(on store: QSStore) async throws -> Int64? {
        let ids = try await store.fetchRows("SELECT uniqueID FROM notes ORDER BY uniqueID").compactMap { row -> Int64? in
            if case .integer(let id) = row[0] { id } else { nil }
        }
        return ids.isEmpty ? nil : ids[Int(random.next() % UInt64(ids.count))]
    }

    private func tagNames(of note: Int64, on store: QSStore) async throws -> [String] {
        try await store.fetchRows(
            "SELECT t.name FROM tagsNotesLookup AS l JOIN tags AS t ON t.uniqueID = l.tagID WHERE l.noteID = ? ORDER BY l.ix", [.integer(note)]
        ).compactMap { row in if case .text(let name) = row[0] { name } else { nil } }
    }

    /// Everything a replica holds, as text to compare.
    private func snapshot(of store: QSStore) async throws -> [String] {
        let queries = [
            "SELECT 'note', uniqueID, text FROM notes ORDER BY uniqueID",
            "SELECT 'tag', uniqueID, name FROM tags ORDER BY uniqueID",
            "SELECT 'attachment', uniqueID, mimeType, length(bytes), hex(substr(bytes, 1, 4)), hex(substr(bytes, -4)) FROM attachments ORDER BY uniqueID",
            "SELECT 'tags of', noteID, group_concat(tagID) FROM (SELECT * FROM tagsNotesLookup ORDER BY noteID, ix) GROUP BY noteID",
            "SELECT 'attachments of', noteID, group_concat(attachmentID) FROM (SELECT * FROM attachmentsNotesLookup ORDER BY noteID, ix) GROUP BY noteID",
        ]
        var lines: [String] = []
        for query in queries { lines += try await store.fetchRows(query).map { $0.map { "\($0)" }.joined(separator: " ") } }
        return lines
    }

    private func differences() async throws -> [String] {
        var problems: [String] = []
        let first = try await snapshot(of: stores[0])
        for index in 1..<stores.count {
            let other = try await snapshot(of: stores[index])
            if other != first {
                let missing = Set(first).subtracting(other).sorted().prefix(4), extra = Set(other).subtracting(first).sorted().prefix(4)
                problems.append("replica \(index) differs from replica 0: lacks \(Array(missing)), has \(Array(extra))")
            }
        }
        let notes = Set(try await stores[0].fetchRows("SELECT uniqueID FROM notes").compactMap { row -> Int64? in
            if case .integer(let id) = row[0] { id } else { nil }
        })
        let revived = notes.intersection(deletedNotes), lost = createdNotes.subtracting(deletedNotes).subtracting(notes)
        if !revived.isEmpty { problems.append("deleted notes exist: \(revived.sorted())") }
        if !lost.isEmpty { problems.append("notes never deleted are missing: \(lost.sorted())") }
        if Set(network.server.existingObjects(in: "notes").keys) != Set(notes.map { SyncID.integer($0) }) {
            problems.append("the server's notes differ from the replicas'")
        }
        return problems
    }

    var replayInstructions: String {
        """
        Vesper sync simulation seed \(seed) failed. Replay it alone with:
            QSDATA_SYNC_SEEDS=\(seed) swift test --filter SyncSimulatorTests
        \((journal + network.log.map { "network: \($0)" }).joined(separator: "\n"))
        """
    }
}
