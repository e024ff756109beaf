@testable import QSData
import Foundation
import Testing

/// The rows a save encodes for one type travel in one list of values: each row still reads as
/// its own, counted from its first column, and an encoder reused for the next object starts it
/// from NULL in every column.
@Suite struct EncodedRowsTests {
    let layout: RowLayout
    let noteLayout: RowLayout

    init() throws {
        let model = try QSDataModel(propertyList: Data(Fixtures.modelPlist().utf8))
        layout = RowLayout(description: try #require(model.objectTypes["TimelineNote"]))
        noteLayout = RowLayout(description: try #require(model.objectTypes["Note"]))
    }

    /// A row's values by column name.
    private func column(_ name: String, of values: RowValues, in layout: RowLayout) throws -> SQLValue {
        values[try #require(layout.index(of: name))]
    }

    @Test func eachRowReadsItsOwnValuesFromItsFirstColumn() throws {
        var rows = EncodedRows(width: layout.count, relationshipCount: 0)
        var encoder = QSRowEncoder(layout: layout)
        encoder.makeReadyForNextObject()
        encoder["uniqueID"] = Int64(1)
        encoder["text"] = "first"
        encoder["archived"] = true
        _ = try rows.appendValues(of: &encoder)
        rows.endRow()
        rows.appendUnencoded()
        encoder.makeReadyForNextObject()
        encoder["uniqueID"] = Int64(3)
        encoder["text"] = "third"
        _ = try rows.appendValues(of: &encoder)
        rows.endRow()

        #expect(rows.count == 3)
        #expect(rows.indices == 0 ..< 3)
        #expect([rows.isUnencoded(0), rows.isUnencoded(1), rows.isUnencoded(2)] == [false, true, false])
        #expect(rows.values(at: 1).isEmpty)
        let first = rows.values(at: 0), third = rows.values(at: 2)
        #expect(first.count == layout.count)
        #expect(third.count == layout.count)
        #expect(first[0] == .integer(1))
        #expect(third[0] == .integer(3))
        #expect(try column("text", of: first, in: layout) == .text("first"))
        #expect(try column("text", of: third, in: layout) == .text("third"))
        #expect(try column("archived", of: first, in: layout) == .integer(1))
        // The encoder, reused, started the third row from NULL: not the first row's value.
        #expect(try column("archived", of: third, in: layout) == .null)
        #expect(third.array == Array(third))
        #expect(rows.lookups(at: 0).isEmpty)
    }

    @Test func rowsEncodedWhereRoomWasMadeReadTheirOwnValuesWithAnUnencodedOneLate() throws {
        var rows = EncodedRows(width: layout.count, relationshipCount: 0)
        rows.reserveCapacity(rows: 4)
        var encoder = QSRowEncoder(layout: layout)
        func encode(_ id: Int64) throws {
            encoder.makeReadyForNextObject()
            encoder["uniqueID"] = id
            encoder["text"] = "note \(id)"
            _ = try rows.appendValues(of: &encoder)
            rows.endRow()
        }
        try encode(1)
        try encode(2)
        rows.appendUnencoded()
        try encode(4)

        #expect(rows.count == 4)
        #expect((0 ..< 4).map(rows.isUnencoded) == [false, false, true, false])
        #expect((0 ..< 4).map { rows.values(at: $0).first } == [.integer(1), .integer(2), nil, .integer(4)])
        #expect(try column("text", of: rows.values(at: 1), in: layout) == .text("note 2"))
        #expect(try column("text", of: rows.values(at: 3), in: layout) == .text("note 4"))
    }

    @Test func theOnlyRowTakesTheEncodersListItself() throws {
        var rows = EncodedRows(width: layout.count, relationshipCount: 0)
        rows.reserveCapacity(rows: 1)
        var encoder = QSRowEncoder(layout: layout)
        encoder.makeReadyForNextObject()
        encoder["uniqueID"] = Int64(9)
        encoder["archived"] = true
        let encoded = encoder.values.withUnsafeBufferPointer { $0.baseAddress }
        _ = try rows.appendValues(of: &encoder)
        rows.endRow()

        #expect(rows.values(at: 0).array.withUnsafeBufferPointer { $0.baseAddress } == encoded)
        #expect(try column("archived", of: rows.values(at: 0), in: layout) == .integer(1))
        // The encoder gets a row of its own again for the next object, every column NULL.
        encoder.makeReadyForNextObject()
        #expect(encoder.values == Array(repeating: .null, count: layout.count))
    }

    @Test func anObjectThatFailsToEncodeLeavesNothingForTheNext() throws {
        var rows = EncodedRows(width: layout.count, relationshipCount: 0)
        var encoder = QSRowEncoder(layout: layout)
        encoder.makeReadyForNextObject()
        encoder["uniqueID"] = Int64(1)
        encoder["text"] = "never saved"
        encoder["noSuchColumn"] = Int64(5)
        #expect(throws: QSDataError.self) { try rows.appendValues(of: &encoder) }
        #expect(rows.count == 0)

        encoder.makeReadyForNextObject()
        encoder["uniqueID"] = Int64(2)
        _ = try rows.appendValues(of: &encoder)
        rows.endRow()
        #expect(rows.count == 1)
        let row = rows.values(at: 0)
        #expect(row.count == layout.count)
        #expect(row[0] == .integer(2))
        #expect(try column("text", of: row, in: layout) == .null)
    }

    @Test func aRowThatIsTheWholeListIsThatListNotACopy() throws {
        let values: [SQLValue] = [.integer(7), .text("seven"), .integer(0), .real(1)]
        let row = RowValues(values)
        #expect(Array(row) == values)
        let shared = row.array.withUnsafeBufferPointer { $0.baseAddress }
        #expect(shared == values.withUnsafeBufferPointer { $0.baseAddress })
    }

    @Test func eachRowOfATypeWithRelationshipsKeepsItsOwnLookupSlots() throws {
        var rows = EncodedRows(width: noteLayout.count, relationshipCount: 2)
        rows.reserveCapacity(rows: 3)
        var encoder = QSRowEncoder(layout: noteLayout)
        let tags = LookupSnapshot.forNewParent(ChildIDs([Int64(10), 11]), knownDistinct: true)
        let otherTags = LookupSnapshot.forNewParent(ChildIDs([Int64(12)]), knownDistinct: true)
        for id in Int64(1) ... 3 {
            encoder.makeReadyForNextObject()
            encoder["uniqueID"] = id
            _ = try rows.appendValues(of: &encoder)
            rows.endRow()
        }
        rows.setLookup(tags, at: 0, ofRow: 0)
        rows.setLookup(otherTags, at: 1, ofRow: 2)

        #expect(Array(rows.lookups(at: 0)) == [LookupSlot(rows: tags), .unknown])
        #expect(Array(rows.lookups(at: 1)) == [.unknown, .unknown])
        #expect(Array(rows.lookups(at: 2)) == [.unknown, LookupSlot(rows: otherTags)])
        #expect(rows.lookups(at: 2).array == [.unknown, LookupSlot(rows: otherTags)])
        #expect(rows.values(at: 1)[0] == .integer(2))
    }

    @Test func aTypeWithoutRelationshipsHasNoLookupSlots() throws {
        var rows = EncodedRows(width: layout.count, relationshipCount: 0)
        var encoder = QSRowEncoder(layout: layout)
        encoder.makeReadyForNextObject()
        encoder["uniqueID"] = Int64(1)
        _ = try rows.appendValues(of: &encoder)
        rows.endRow()
        #expect(rows.lookups(at: 0).isEmpty)
    }
}
