import Foundation
import QSData
import Testing

/// Types that disagree with the fixture model, each in one way.
private struct TagMissingName: QSDataObject {
    static let modelName = "Tag"
    let uniqueID: String
    init(row: QSRow) throws { uniqueID = try row["uniqueID"] }
    func encode(to row: inout QSRowEncoder) { row["uniqueID"] = uniqueID }
}

private struct TagWithWrongType: QSDataObject {
    static let modelName = "Tag"
    let uniqueID: String
    let name: Int64
    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        name = try row["name"]
    }
    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
    }
}

private struct TagWithExtraColumn: QSDataObject {
    static let modelName = "Tag"
    let uniqueID: String
    let name: String
    let colour: String?
    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        name = try row["name"]
        colour = try row["colour"]
    }
    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
    }
}

private final class TagClassNotUpdatable: QSDataObject {
    static let modelName = "Tag"
    let uniqueID: String
    let name: String
    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        name = try row["name"]
    }
    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["name"] = name
    }
}

private struct Stranger: QSDataObject {
    let uniqueID: Int64
    init(row: QSRow) throws { uniqueID = try row["uniqueID"] }
    func encode(to row: inout QSRowEncoder) { row["uniqueID"] = uniqueID }
}

@MainActor
@Suite struct TypeVerificationTests {
    private func open(_ tagType: any QSDataObject.Type) async throws {
        _ = try await QSStore.open(at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(),
                                   schema: QSSchema(creationSQL: Fixtures.schemaSQL),
                                   types: [Note.self, TimelineNote.self, Attachment.self, tagType])
    }

    @Test func aTypeLackingADeclaredPropertyIsNamed() async {
        await #expect(throws: QSDataError.typeMismatch(type: "Tag", problems: [
            "init(row:) never touches 'name' (string in the model)",
            "encode(to:) never touches 'name' (string in the model)",
        ])) { try await open(TagMissingName.self) }
    }

    @Test func aPropertyOfTheWrongSwiftTypeIsNamed() async {
        await #expect(throws: QSDataError.typeMismatch(type: "Tag", problems: [
            "init(row:) reads 'name' as Int64 but the model says string",
            "encode(to:) writes 'name' as Int64 but the model says string",
        ])) { try await open(TagWithWrongType.self) }
    }

    @Test func readingAColumnTheModelLacksIsNamed() async {
        await #expect(throws: QSDataError.typeMismatch(type: "Tag", problems: [
            "init(row:) reads 'colour', which the model does not declare",
        ])) { try await open(TagWithExtraColumn.self) }
    }

    @Test func aUniquedClassMustPatchInPlace() async {
        await #expect(throws: QSDataError.typeMismatch(type: "Tag", problems: [
            "a uniqued or cached class must conform to QSUpdatableObject, so changes can patch live instances in place",
        ])) { try await open(TagClassNotUpdatable.self) }
    }

    @Test func aTypeTheModelDoesNotDeclareIsRefused() async {
        await #expect(throws: QSDataError.typeMismatch(type: "Stranger", problems: [
            "the data model declares no object type named 'Stranger'",
        ])) { try await open(Stranger.self) }
    }

    @Test func aRelationshipToAnUnregisteredTypeIsRefused() async {
        await #expect(throws: QSDataError.typeMismatch(type: "Note", problems: [
            "relationship 'attachments' needs Attachment, which is not among the registered types",
        ])) {
            _ = try await QSStore.open(at: Fixtures.temporaryDatabaseURL(), model: Fixtures.model(),
                                       schema: QSSchema(creationSQL: Fixtures.schemaSQL), types: [Note.self, Tag.self])
        }
    }

    @Test func aNullInANonOptionalColumnIsATypedError() async throws {
        let store = try await Fixtures.openStore()
        try await store.execute("INSERT INTO attachments (uniqueID, mimeType, width, height) VALUES ('broken', 'image/png', NULL, 1)")
        await #expect(throws: QSDataError.unexpectedNull(type: "Attachment", column: "width")) {
            _ = try await store.fetch(Attachment.self, id: "broken")
        }
    }
}
