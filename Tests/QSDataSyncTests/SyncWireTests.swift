import Foundation
import QSDataSync
import Testing

/// The protocol's JSON: what each value, ID and change looks like on the wire, and that it comes back.
struct SyncWireTests {
    @Test func valuesTravelAsPlainJSON() throws {
        let values: [String: SyncValue] = [
            "n": .null, "i": .integer(42), "r": .real(2.5), "t": .text("hé \"quoted\""),
            "b": .blob(Data([0, 1, 255])), "kids": .ids([.integer(3), .string("x")]),
        ]
        let json = String(decoding: try SyncProtocol.makeEncoder().encode(values), as: UTF8.self)
        #expect(json == #"{"b":{"base64":"AAH/"},"i":42,"kids":[3,"x"],"n":null,"r":2.5,"t":"hé \"quoted\""}"#)
        let back = try SyncProtocol.makeDecoder().decode([String: SyncValue].self, from: Data(json.utf8))
        #expect(back == values)
    }

    @Test func idsKeepIntegersAndStringsApart() {
        #expect(SyncID.integer(42).json == "42")
        #expect(SyncID.string("42").json == "\"42\"")
        #expect(SyncID.string("a\"b\\c\n").json == #""a\"b\\c\n""#)
        for id in [SyncID.integer(-7), .string("42"), .string("a\"b\\c\n\u{1}é")] {
            #expect(SyncID(json: id.json) == id)
        }
        #expect(SyncID(json: "4x") == nil)
    }

    @Test func aMalformedStampIsADecodingErrorNamingIt() {
        let body = #"{"table":"t","ids":[1],"deleted":"yesterday","values":{},"stamps":{}}"#
        #expect(throws: DecodingError.self) { try SyncProtocol.makeDecoder().decode(SyncChange.self, from: Data(body.utf8)) }
    }

    @Test func aDeletionTravelsWithoutValuesOrStamps() throws {
        let body = #"{"table":"feeds","ids":["https://old.example.com/rss"],"deleted":"018c2e5fa000-0000-3f2a9b7c1d0e4f55"}"#
        let change = try SyncProtocol.makeDecoder().decode(SyncChange.self, from: Data(body.utf8))
        #expect(change.problem == nil && change.values.isEmpty && change.stamps.isEmpty)
        let encoded = String(decoding: try SyncProtocol.makeEncoder().encode(change), as: UTF8.self)
        #expect(encoded == #"{"deleted":"018c2e5fa000-0000-3f2a9b7c1d0e4f55","ids":["https://old.example.com/rss"],"table":"feeds"}"#)
    }

    @Test func problemsOfAChangeAreNamed() {
        let stamp = SyncStamp(milliseconds: 1, counter: 0, replica: SyncReplicaID(text: "0000000000000001")!)
        #expect(SyncChange(table: "", ids: [.integer(1)], deleted: stamp).problem == "a change names no table")
        #expect(SyncChange(table: "t", ids: [], deleted: stamp).problem == "a change of t names no object")
        #expect(SyncChange(table: "t", ids: [.integer(1)], values: ["a": .null]).problem == "a change of t has values without stamps, and no creation stamp they could take")
        #expect(SyncChange(table: "t", ids: [.integer(1)], deleted: stamp, stamps: ["a": stamp]).problem == "a change of t has stamps for properties it gives no value")
        let creation = SyncChange(table: "t", ids: [.integer(1)], created: stamp, values: ["a": .null])
        #expect(creation.problem == nil && creation.record.stamps == ["a": stamp])
        #expect(SyncChange(table: "t", ids: [.integer(1)]).problem == "a change of t changes nothing")
        #expect(SyncChange(table: "t", ids: [.integer(1)], deleted: stamp).problem == nil)
    }
}
