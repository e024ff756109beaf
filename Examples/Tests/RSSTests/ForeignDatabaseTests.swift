import ExampleTestSupport
import Foundation
import QSData
import Testing

/// `rss` leaves a SQLite file that isn't its own as it was, and says what the file is not.
@Suite struct ForeignDatabaseTests {
    @Test func anotherAppsSQLiteFileIsRefusedUntouched() async throws {
        let folder = try TestFolder(prefix: "rss-foreign")
        let database = folder.appending("other.sqlite")
        do {
            let connection = try SQLiteConnection(path: database.path)
            try connection.executeScript("CREATE TABLE recipes (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO recipes (title) VALUES ('soup');")
        }
        let before = try Data(contentsOf: database)
        let run = await TestSupport.rss(["feeds"], database: database)
        #expect(run.status == 1)
        #expect(run.error == "rss: \(database.path) is not an RSS reader database (it was left as it was)\n")
        #expect(try Data(contentsOf: database) == before)
        #expect(try SQLiteConnection(path: database.path).fetchValue("PRAGMA journal_mode") == .text("delete"))
    }
}
