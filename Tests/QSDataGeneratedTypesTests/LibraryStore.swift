import Foundation
import QSData
import TestSupport

/// Opens stores on the library model, with the plist and SQL bundled beside the generated types.
enum LibraryStore {
    static let allTypes: [any QSDataObject.Type] = [
        Shelf.self, ShelfSummary.self, Book.self, BookRecord.self, Author.self, Label.self, Stamp.self, Sticker.self,
        LibraryTask.self,
    ]

    static func model() throws -> QSDataModel {
        try QSDataModel(contentsOf: try resource("Library", "plist"))
    }

    static func schemaSQL() throws -> String {
        try String(contentsOf: try resource("Library", "sql"), encoding: .utf8)
    }

    static func resource(_ name: String, _ ext: String) throws -> URL {
        guard let url = Bundle.module.url(forResource: name, withExtension: ext) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name).\(ext)"])
        }
        return url
    }

    /// A fresh database in a new folder of the test run's.
    static func temporaryDatabaseURL() -> URL {
        TestRunFolder.newFolder("qsdata-generated").appendingPathComponent("library.sqlite")
    }

    @MainActor
    static func open(at url: URL = temporaryDatabaseURL(), schemaSQL: String? = nil) async throws -> QSStore {
        try await QSStore.open(
            at: url, model: model(), schema: QSSchema(creationSQL: schemaSQL ?? Self.schemaSQL()), types: allTypes)
    }

    static let date = Date(timeIntervalSince1970: 1_700_000_000)
}
