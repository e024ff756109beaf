import Foundation
import GRDB
import QSData
import CSQLiteBench

/// The sizes of the workloads, scaled by `--scale`.
struct Sizes {
    let scale: Double

    func scaled(_ count: Int) -> Int { max(1, Int((Double(count) * scale).rounded())) }

    var timelineNotes: Int { scaled(100_000) }
    var notesWithRelationships: Int { scaled(10_000) }
    var savedNotes: Int { scaled(100_000) }
    var articles: Int { scaled(100_000) }
    var markedRead: Int { scaled(10_000) }
    var deletedNotes: Int { scaled(10_000) }
    var stallObjects: Int { scaled(100_000) }
    var lookups: Int { scaled(10_000) }
    /// The rows of the long write that `reads-during-write` and `wal-growth` read beside.
    var backgroundWriteRows: Int { scaled(100_000) }
    /// A word few article titles hold: an article's number in its title ("Article 4217 about …"),
    /// a smaller number when the scale leaves fewer than 4,218 articles.
    var rareSearchWord: String { String(min(4217, articles / 2)) }
}

enum Impl {
    static let raw = "raw sqlite3"
    static let grdb = "GRDB records"
    static let grdbRows = "GRDB rows by index"
    static let qsdata = "QSData"
    /// QSData with the types QSDataModelPlugin generates from the data model.
    static let qsdataGenerated = "QSData generated types"
    /// QSData with uniqued classes that mark the properties the app sets (`QSChangeTrackingObject`).
    static let qsdataMarking = "QSData marking changes"
}

/// The workloads. Each does the same work with raw sqlite3, GRDB and QSData on identical data.
@MainActor
final class Workloads {
    let harness: Harness
    let sizes: Sizes
    /// How long each phase of `wal-growth` reads and writes.
    let walGrowthDuration: Duration
    private var noteTemplates: [Int: String] = [:]
    private var articleTemplates: [Int: String] = [:]
    private var noteValuesCache: [Int: [NoteValues]] = [:]

    init(harness: Harness, sizes: Sizes, walGrowthDuration: Duration = .seconds(60)) {
        self.harness = harness
        self.sizes = sizes
        self.walGrowthDuration = walGrowthDuration
    }

    nonisolated static let names = [
        "timeline", "relationships", "save", "mark-read", "delete", "main-actor", "byid", "saves",
        "search-common", "search-rare", "save-search-index", "memory", "reads-during-write", "wal-growth",
        "startup", "live-query", "outside-change",
    ]

    func run(_ name: String) async throws -> [BenchResult] {
        switch name {
        case "timeline": return try await fetchTimeline()
        case "relationships": return try await fetchNotesWithRelationships()
        case "save": return try await saveNotes()
        case "mark-read": return try await markArticlesRead()
        case "delete": return try await deleteNotes()
        case "main-actor": return try await mainActorStall()
        case "byid": return try await fetchByID()
        case "saves": return try await incrementalSaves()
        case "search-common": return try await searchArticles(for: "tempor", label: "search a common word")
        case "search-rare": return try await searchArticles(for: sizes.rareSearchWord, label: "search a rare word")
        case "save-search-index": return try await saveNotesWithSearchIndex()
        case "memory": return try await memory()
        case "reads-during-write": return try await readsDuringWrite()
        case "wal-growth": return try await walGrowth()
        case "startup": return try await openToFirstFetch()
        case "live-query": return try await liveQueryAfterOneChange()
        case "outside-change": return try await outsideChangeReachesLiveQuery()
        default: return []
        }
    }

    // MARK: Data

    func noteValues(_ count: Int) -> [NoteValues] {
        if let cached = noteValuesCache[count] { return cached }
        let values = SampleData.notes(count)
        noteValuesCache[count] = values
        return values
    }

    /// An empty database with the benchmark schema, made with raw sqlite3.
    func emptyDatabase(_ name: String) throws -> String {
        let path = harness.newDatabasePath(name)
        let db = try RawDatabase(path: path)
        try db.execute(BenchModel.schemaSQL())
        return path
    }

    /// A closed database holding `count` notes with two tags and one attachment each.
    func notesTemplate(_ count: Int) throws -> String {
        if let path = noteTemplates[count] { return path }
        let path = try emptyDatabase("notes-template")
        do {
            let db = try RawDatabase(path: path)
            let tags = SampleData.tags.map(RawTag.init)
            try RawNotes.save(noteValues(count).map { RawNote($0, tags: tags) }, in: db)
        }
        noteTemplates[count] = path
        return path
    }

    /// A closed database holding `count` unread articles.
    func articlesTemplate(_ count: Int) throws -> String {
        if let path = articleTemplates[count] { return path }
        let path = try emptyDatabase("articles-template")
        do {
            let db = try RawDatabase(path: path)
            try RawArticles.insert((0..<count).map(SampleData.article), in: db)
        }
        articleTemplates[count] = path
        return path
    }

    func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw RawSQLiteError(description: "result check failed: \(message())") }
    }
}
