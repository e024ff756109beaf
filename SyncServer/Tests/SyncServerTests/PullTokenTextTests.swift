import Foundation
@testable import SyncServerKit
import Testing

/// A pull token's text: what each version says, and what the server refuses.
struct PullTokenTextTests {
    let database = "db1"

    /// URL-safe base64 of `text`, as the server writes tokens.
    func token(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func aThirdVersionTokenSaysWhetherItsPullBeganWithoutOne() throws {
        for group in [nil, String(repeating: "0123456789abcdef", count: 2)] {
            for whole in [false, true] {
                let made = PullToken(sequence: 40, collected: 3, since: 0, group: group, continuesAPullWithoutToken: whole)
                let read = try #require(PullToken(text: made.text(databaseID: database), databaseID: database))
                #expect(read == made)
                #expect(read.continuesAPullWithoutToken == whole)
                #expect(!read.isFirstVersion)
            }
        }
        #expect(PullToken(text: token("v3:db1:40:3:0:2"), databaseID: database) == nil, "WHOLE is 0 or 1")
        #expect(PullToken(text: token("v3:db1:40:3:0"), databaseID: database) == nil, "WHOLE is required")
        #expect(PullToken(text: token("v3:db1:40:3:41:0"), databaseID: database) == nil, "since is at most the sequence number")
        #expect(PullToken(text: token("v3:db2:40:3:0:0"), databaseID: database) == nil, "another database's")
    }

    /// Second-version tokens, made before tokens said it, still read as they were meant: a page
    /// counting from 0 past 0 continues a pull that began without a token.
    @Test func aSecondVersionTokenIsReadAsBefore() throws {
        let midPull = try #require(PullToken(text: token("v2:db1:40:3:0"), databaseID: database))
        #expect(midPull.continuesAPullWithoutToken)
        #expect(midPull.since == 0 && midPull.sequence == 40)
        let emptyAccount = try #require(PullToken(text: token("v2:db1:0:0:0"), databaseID: database))
        #expect(!emptyAccount.continuesAPullWithoutToken)
        let later = try #require(PullToken(text: token("v2:db1:40:3:40"), databaseID: database))
        #expect(!later.continuesAPullWithoutToken)
    }

    @Test func aFirstVersionTokenIsReadForAPushAndCountsFromItsSequenceNumber() throws {
        let old = try #require(PullToken(text: token("v1:db1:40:3"), databaseID: database))
        #expect(old.isFirstVersion)
        #expect(old.since == 40)
        #expect(!old.continuesAPullWithoutToken)
    }
}
