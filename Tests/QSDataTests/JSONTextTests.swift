@testable import QSData
import Testing

/// The JSON lists of uniqueIDs that bulk updates and deletes bind, written byte by byte.
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
