import Foundation
import QSData
import Testing

/// The model's `?` is checked against the schema when the store opens: a generated type's
/// required properties need NOT NULL columns, and an optional property a column that allows NULL.
@MainActor
@Suite struct OptionalityCheckTests {
    @Test func aRequiredPropertyOfAGeneratedTypeOnANullableColumnIsReported() async throws {
        let schema = try LibraryStore.schemaSQL()
            .replacingOccurrences(of: "title TEXT NOT NULL,\n    note", with: "title TEXT,\n    note")
        await #expect(throws: QSDataError.schemaMismatch([
            "Shelf.title: the model says 'string', never NULL, but column 'title' of 'shelves' allows NULL: write 'string?' or declare the column NOT NULL",
        ])) {
            try await LibraryStore.open(schemaSQL: schema)
        }
    }

    @Test func anOptionalPropertyOnANotNullColumnIsReported() async throws {
        let schema = try LibraryStore.schemaSQL().replacingOccurrences(of: "subtitle TEXT,", with: "subtitle TEXT NOT NULL DEFAULT '',")
        await #expect(throws: QSDataError.schemaMismatch([
            "Book.subtitle: the model says 'string?', which may be NULL, but column 'subtitle' of 'books' is NOT NULL",
            "BookRecord.subtitle: the model says 'string?', which may be NULL, but column 'subtitle' of 'books' is NOT NULL",
        ])) {
            try await LibraryStore.open(schemaSQL: schema)
        }
    }
}
