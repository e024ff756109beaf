@testable import QSData
import Testing

/// The JSON lists of uniqueIDs that bulk updates and deletes bind.
@Suite struct JSONTextTests {
    @Test func integerIDsAreWrittenAsTheirDecimalDigits() {
        let ids: [QSAnyID] = [.integer(0), .integer(9), .integer(10), .integer(-1), .integer(1_000_000), .integer(.max), .integer(.min)]
        #expect(IDList.json(ids) == .text("[0,9,10,-1,1000000,9223372036854775807,-9223372036854775808]"))
    }

    @Test func textIDsAreQuotedAndEscaped() {
        let ids: [QSAnyID] = [.string("plain"), .string("a\"b\\c"), .string("tab\there"), .string("é")]
        #expect(IDList.json(ids) == .text(#"["plain","a\"b\\c","tab\there","é"]"#))
    }

    @Test func anEmptyListIsAnEmptyArray() {
        #expect(IDList.json([QSAnyID]()) == .text("[]"))
    }
}

extension JSONTextTests {
    @Test func controlCharactersAreWrittenAsEscapes() {
        let ids: [QSAnyID] = [.string("line\nfeed\rreturn"), .string("\u{01}\u{1F}")]
        #expect(IDList.json(ids) == .text(#"["line\nfeed\rreturn","\u0001\u001f"]"#))
    }

    /// The text is written into storage sized beforehand: a string whose every byte is escaped
    /// takes the most room there is.
    @Test func aStringOfNothingButEscapesFitsItsRoom() {
        let escaped = String(repeating: "\u{02}", count: 40)
        let json = IDList.json([.string(escaped), .integer(.min)])
        #expect(json == .text("[\"" + String(repeating: #"\u0002"#, count: 40) + "\"," + "-9223372036854775808]"))
    }

    /// The room made for a list of text IDs is measured, not guessed: exactly the bytes written,
    /// escapes and all.
    @Test func theRoomForTextIDsIsExactlyWhatTheyTake() {
        let ascii = String((1 ... 127).map { Character(Unicode.Scalar(UInt8($0))) })
        let lists: [[QSAnyID]] = [
            [], [.string("")], [.string("plain")], [.string(ascii), .string("é\u{1F600}"), .string("\"\\\n\r\t\u{08}")],
        ]
        for ids in lists {
            guard case .text(let json) = IDList.json(ids) else {
                Issue.record("not text")
                continue
            }
            #expect(json.utf8.count == JSONText.room(for: ids), "\(ids)")
        }
    }

    /// Long and short strings, integers of every length and sign: SQLite's own JSON reader gets
    /// back the very IDs written.
    @Test func sqliteReadsBackEveryIDWritten() throws {
        var ids: [QSAnyID] = []
        var value: Int64 = 7
        for index in 0 ..< 60 {
            ids.append(.integer(index.isMultiple(of: 2) ? value : -value))
            ids.append(.string(String(repeating: "é\"x", count: index)))
            // Every ASCII character but NUL, each escaped or not, at every position over the run.
            let ascii = (1 ... 127).map { Character(Unicode.Scalar(UInt8($0))) }
            ids.append(.string(String(ascii[(index * 7) % ascii.count ..< ascii.count] + ascii[0 ..< (index * 7) % ascii.count])))
            value = value.multipliedReportingOverflow(by: 10).overflow ? 3 : value * 10
        }
        let connection = try SQLiteConnection(path: ":memory:")
        let read = try connection.fetchRows("SELECT value FROM json_each(?) ORDER BY key", [IDList.json(ids)])
        #expect(read.map { QSAnyID(sqlValue: $0[0]) } == ids)
    }
}
