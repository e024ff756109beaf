import Testing
import QSData
@Test func sqliteVersion() { #expect(!QSDataVersion.sqlite.isEmpty) }
