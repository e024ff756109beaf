import ExampleTestSupport
import Foundation
import Testing
import VesperCore
@testable import VesperSync

/// Wire JSON ↔ typed sync objects: dates, tags and notes.
@Suite struct SyncObjectTests {
    // A notes response, with nulls.
    static let serverNote = """
        {"noteID":3370123456789012,"archived":false,"text":"Buy milk\\nhttp://example.com",
         "creationDate":"2014-06-12T23:40:00.000Z","sortDate":"2014-06-12T23:40:00.000Z",
         "textModificationDate":"2014-06-12T23:44:29.099Z","archivedModificationDate":null,
         "sortDateModificationDate":null,"tagsModificationDate":"2014-06-12T23:41:10.250Z",
         "attachmentsModificationDate":"2014-06-12T23:42:00.500Z","tags":"Errands  Home",
         "attachments":"W3sidW5pcXVlSUQiOiI2Rjk2MTlGRi04Qjg2LTREMDEtQjQyRC0wMEMwNEZDOTY0RkYiLCJtaW1lVHlwZSI6ImltYWdlL2pwZWciLCJ3aWR0aCI6MzI2NCwiaGVpZ2h0IjoyNDQ4fV0=",
         "userID": 42, "somethingNew": [1, 2]}
        """

    @Test func serverNoteReadsNullsDatesTagsAndBase64Attachments() throws {
        let note = try VSSyncNote(json: VSJSON.parse(Data(Self.serverNote.utf8)))
        #expect(note.noteID == 3_370_123_456_789_012)
        #expect(note.text == "Buy milk\nhttp://example.com")
        #expect(note.archived == false)
        #expect(note.textModificationDate == VSSyncDate.date(milliseconds: 1_402_616_669_099))
        #expect(note.archivedModificationDate == nil && note.sortDateModificationDate == nil)
        #expect(note.tagsModificationDate == VSSyncDate.date(milliseconds: 1_402_616_470_250))
        #expect(note.tagNames == ["Errands", "Home"])
        #expect(note.attachments == [VSSyncAttachment(uniqueID: "6F9619FF-8B86-4D01-B42D-00C04FC964FF", mimeType: "image/jpeg", width: 3264, height: 2448)])
    }

    @Test func nullTextArchivedTagsAndAttachmentsMeanNone() throws {
        let json = #"{"noteID":1234,"text":null,"archived":null,"tags":null,"attachments":null,"creationDate":"not a date","sortDate":null}"#
        let note = try VSSyncNote(json: VSJSON.parse(Data(json.utf8)))
        #expect(note.text == nil && note.archived == false && note.tagNames.isEmpty && note.attachments.isEmpty)
        #expect(note.creationDate == nil && note.sortDate == nil)
    }

    @Test func archivedAcceptsNumbers() throws {
        let note = try VSSyncNote(json: VSJSON.parse(Data(#"{"noteID":1234,"archived":1}"#.utf8)))
        #expect(note.archived)
    }

    @Test func noteWithoutIntegerIDOrWithBadAttachmentsIsRefused() throws {
        #expect(throws: VSSyncObjectError.missingValue(kind: "note", key: "noteID")) {
            try VSSyncNote(json: VSJSON.parse(Data(#"{"noteID":"1234"}"#.utf8)))
        }
        #expect(throws: VSSyncObjectError.badAttachments(noteID: 1234)) {
            try VSSyncNote(json: VSJSON.parse(Data(#"{"noteID":1234,"attachments":"%%%not base64"}"#.utf8)))
        }
        #expect(throws: VSSyncObjectError.notAnObject(kind: "note")) { try VSSyncNote(json: .array([])) }
    }

    @Test func uploadFormOmitsMissingDatesAndEmptyListsAndSendsEmptyText() throws {
        let created = try wireDate("2014-06-12T16:40:00.000-07:00")
        let note = VSSyncNote(noteID: 1_000_001, text: nil, creationDate: created, sortDate: created)
        let json = try note.json()
        #expect(json == .object([
            "noteID": .integer(1_000_001), "text": .string(""), "archived": .bool(false),
            "creationDate": .string("2014-06-12T23:40:00.000Z"), "sortDate": .string("2014-06-12T23:40:00.000Z"),
        ]))
        #expect(String(decoding: try json.data(), as: UTF8.self).contains(#""noteID":1000001"#))
    }

    @Test func uploadFormJoinsTagsWithTwoSpacesAndBase64sAttachments() throws {
        let date = try wireDate("2014-06-12T23:44:29.099Z")
        let attachment = VSSyncAttachment(uniqueID: "6F9619FF-8B86-4D01-B42D-00C04FC964FF", mimeType: "image/jpeg", width: 3264, height: 2448)
        let note = VSSyncNote(noteID: 9_007_199_254_740_992, text: "Buy milk", archived: true, creationDate: date, sortDate: date,
                              textModificationDate: date, tagsModificationDate: date, tagNames: ["Errands", "Home"], attachments: [attachment])
        let json = try note.json()
        #expect(json["tags"] == .string("Errands  Home"))
        #expect(json["textModificationDate"] == .string("2014-06-12T23:44:29.099Z"))
        #expect(json["archivedModificationDate"] == nil)
        let encoded = try #require(json["attachments"]?.string)
        let decoded = try VSJSON.parse(try #require(Data(base64Encoded: encoded)))
        #expect(decoded == .array([.object(["uniqueID": .string(attachment.uniqueID), "mimeType": .string("image/jpeg"),
                                            "width": .integer(3264), "height": .integer(2448)])]))
        #expect(try VSSyncNote(json: json) == note)
    }

    @Test func attachmentWidthAndHeightDefaultToZero() throws {
        let attachment = try VSSyncAttachment(json: VSJSON.parse(Data(#"{"uniqueID":"ABC","mimeType":"image/png","width":null}"#.utf8)))
        #expect(attachment == VSSyncAttachment(uniqueID: "ABC", mimeType: "image/png", width: 0, height: 0))
    }

    @Test func tagsDeriveUniqueIDFromNameAndRefuseBlankNames() throws {
        let tag = try VSSyncTag(json: VSJSON.parse(Data(#"{"uniqueID":"WRONG","name":"Road Trip","nameModificationDate":"2014-06-11T10:15:30.250-07:00"}"#.utf8)))
        #expect(tag.uniqueID == "road trip")
        #expect(tag.nameModificationDate == VSSyncDate.date(milliseconds: 1_402_506_930_250))
        #expect(tag.json == .object(["uniqueID": .string("road trip"), "name": .string("Road Trip"),
                                     "nameModificationDate": .string("2014-06-11T17:15:30.250Z")]))
        #expect(throws: VSSyncObjectError.missingValue(kind: "tag", key: "name")) { try VSSyncTag(json: .object(["name": .string("   ")])) }
        #expect(VSSyncTag(name: "Paris", nameModificationDate: nil).json == .object(["uniqueID": .string("paris"), "name": .string("Paris")]))
    }

    @Test func twoSpaceTagListsDropEmptyComponents() {
        #expect(VSSyncNote.tagNames(fromWire: "Errands  Home") == ["Errands", "Home"])
        #expect(VSSyncNote.tagNames(fromWire: "  Errands    Home  ") == ["Errands", "Home"])
        #expect(VSSyncNote.tagNames(fromWire: "Road Trip") == ["Road Trip"])
        #expect(VSSyncNote.tagNames(fromWire: "") == [] && VSSyncNote.tagNames(fromWire: nil) == [])
    }

    @Test func wireDatesConvertToAndFromDates() throws {
        // The format itself is tested with WireDate; here, only the conversion to Date.
        #expect(try wireDate("2014-06-12T16:44:29.099-07:00") == VSSyncDate.date(milliseconds: 1_402_616_669_099))
        #expect(VSSyncDate.date(from: "2014-02-29T00:00:00Z") == nil)
        // Sub-millisecond parts are cut, never rounded up.
        #expect(VSSyncDate.string(from: Date(timeIntervalSince1970: 1_402_616_669.0999)) == "2014-06-12T23:44:29.099Z")
        #expect(VSSyncDate.string(from: Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(VSSyncDate.string(from: VSSyncNote.oldDate) == "2012-12-12T12:00:00.000Z")
    }

    @Test func httpDatesRoundTrip() throws {
        let date = VSSyncDate.date(milliseconds: 1_402_616_669_000)
        #expect(VSSyncDate.httpString(from: date) == "Thu, 12 Jun 2014 23:44:29 GMT")
        #expect(VSSyncDate.date(fromHTTP: "Thu, 12 Jun 2014 23:44:29 GMT") == date)
        #expect(VSSyncDate.date(fromHTTP: "2014-06-12T23:44:29Z") == nil)
        #expect(VSSyncDate.date(fromHTTP: "Sat, 29 Feb 2014 23:44:29 GMT") == nil)
        #expect(VSSyncDate.date(fromHTTP: "Thu, 12 Jun 2014 23:44:60 GMT") == nil)
        // Found by the fuzzer (Tests/Fuzz/SyncWire/regressions): a huge year overflowed the
        // arithmetic and crashed; out-of-range fields are refused instead.
        let fuzzed = try Data(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/SyncWire/regressions/http-date-year-overflow"))
        #expect(VSSyncDate.date(fromHTTP: String(decoding: fuzzed.prefix { $0 != 0x0A }, as: UTF8.self)) == nil)
        #expect(VSSyncDate.date(fromHTTP: "Thu, 12 Jun 26666666603 23:44:29 GMT") == nil)
        #expect(VSSyncDate.date(fromHTTP: "Thu, 12 Jun 2014 -1:44:29 GMT") == nil)
    }

    @Test func millisecondsSurviveTheRoundTripForManyValues() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<10_000 {
            let ms = Int64.random(in: 1_300_000_000_000...2_000_000_000_000, using: &generator)
            let date = VSSyncDate.date(milliseconds: ms)
            #expect(VSSyncDate.milliseconds(date) == ms)
            #expect(VSSyncDate.date(from: VSSyncDate.string(from: date)) == date)
        }
    }

    @Test func serverWinsOnlyWithAStrictlyLaterMillisecond() {
        let local = VSSyncDate.date(milliseconds: 1_000_000)
        #expect(VSSyncDate.serverWins(VSSyncDate.date(milliseconds: 1_000_001), over: local))
        #expect(!VSSyncDate.serverWins(local, over: local))
        #expect(!VSSyncDate.serverWins(Date(timeIntervalSince1970: 1_000.0004), over: local))
        #expect(!VSSyncDate.serverWins(VSSyncDate.date(milliseconds: 999_999), over: local))
        #expect(!VSSyncDate.serverWins(nil, over: local) && !VSSyncDate.serverWins(nil, over: nil))
        #expect(VSSyncDate.serverWins(local, over: nil))
    }

    @MainActor
    @Test func modelNotesBecomeSyncNotesWithOrderedTagsAndAttachments() async throws {
        let folder = try TestFolder()
        let vesper = try await VSDataController.open(at: try folder.databaseURL("model"))
        let note = try await vesper.userDidCreateNote(text: "Trip", tagNames: ["Travel", "Errands", "Alpha"])
        let attachment = try vesper.userDidAddAttachment(fileAt: try folder.file("a.png", SampleImages.png), to: note)
        let sync = VSSyncNote(note)
        #expect(sync.noteID == note.uniqueID && sync.text == "Trip" && sync.creationDate == note.creationDate)
        #expect(sync.tagNames == ["Travel", "Errands", "Alpha"])
        #expect(sync.attachments == [VSSyncAttachment(uniqueID: attachment.uniqueID, mimeType: "image/png", width: 1, height: 1)])
        #expect(sync.attachments.map(\.attachment) == [attachment])
        try await vesper.close()
    }

    @Test func apiURLsSortAndEscapeQueryKeysAndValues() async {
        let url = await MainActor.run {
            VSAPICaller(serverURL: URL(string: "http://127.0.0.1:8080/api/")!, transport: ScriptedTransport { _ in VSHTTPResponse(statusCode: 200) })
                .apiURL("blobs/urlForUploading", query: [("md5", "Q2h+/w=="), ("Date", "Thu, 12 Jun"), ("filename", "A-1.b")])
        }
        #expect(url.absoluteString == "http://127.0.0.1:8080/api/blobs/urlForUploading?Date=Thu%2C%2012%20Jun&filename=A%2D1%2Eb&md5=Q2h%2B%2Fw%3D%3D")
    }
}

/// A small deterministic random generator (SplitMix64) for reproducible tests.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
