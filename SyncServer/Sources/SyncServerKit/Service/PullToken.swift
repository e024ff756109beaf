import Foundation
import QSDataSync

/// A pull token: where the next pull starts (the account's sequence number of the last record
/// sent), since when the changes it sends are counted, and how far the account had been collected
/// when the token was made, tied to this database and to the group pulled, if any (each group has
/// a sequence of its own). Opaque to clients (URL-safe base64 of
/// `v3:DATABASE:SEQUENCE:COLLECTED:SINCE:WHOLE`, and `:GROUP` for a group's; `WHOLE` is 1 in the
/// pages of a pull that began without a token, which bring the replica's own writes too).
///
/// A pull of many pages sends each record in the page of its latest change (again in a later
/// page if it changes while the pull goes on), with every part that changed since the pull's
/// first token: a record created in an earlier page's range and changed again after it comes
/// whole, creation included. `since` is that first token's number until the last page; after
/// it, the next pull starts and counts from the same number.
///
/// Tokens of the first version (`v1:DATABASE:SEQUENCE:COLLECTED[:GROUP]`) counted each page from
/// its own start, which skipped such creations: a push still takes one for its check, but a pull
/// refuses it, so that the replica pulls everything again and gets what it missed. Tokens of the
/// second version (`v2:DATABASE:SEQUENCE:COLLECTED:SINCE[:GROUP]`) had no `WHOLE`: a page counting
/// from 0 was taken to continue a pull without a token, which also caught the pages of a replica's
/// pull that began at an empty account's token, and sent it back all its own writes.
///
/// A token is good while no collection has gone past its sequence number or its collected one
/// since: everything the replica was sent up to its sequence number is still described by what
/// the server holds, deletions included.
struct PullToken: Equatable {
    var sequence: Int64
    var collected: Int64
    /// The changes a pull sends are those after this number (at most ``sequence``).
    var since: Int64
    var group: String?
    /// Whether this is a page's token in a pull that began without one, which brings the
    /// replica's own writes too.
    var continuesAPullWithoutToken: Bool
    /// Read from a token of the first version, which had no ``since``: good for a push's check,
    /// refused by a pull (see ``SyncService/pull(since:limit:replica:group:accountID:)``).
    var isFirstVersion = false

    /// The sequence number the account may have collected through while this token stays good.
    var horizon: Int64 { max(sequence, collected) }

    func text(databaseID: String) -> String {
        let whole = continuesAPullWithoutToken ? 1 : 0
        return Data("v3:\(databaseID):\(sequence):\(collected):\(since):\(whole)\(group.map { ":\($0)" } ?? "")".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A token this database made; nil for any other text. (Tokens made before collection
    /// existed have no collected number: 0; tokens of the first version count from their
    /// sequence number.)
    init?(text token: String, databaseID: String) {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts[1] == databaseID else { return nil }
        let numberParts: ArraySlice<String>
        let groupPart: String?
        switch parts[0] {
        case "v1":  // SEQUENCE[:COLLECTED[:GROUP]]
            guard parts.count <= 5 else { return nil }
            numberParts = parts[2 ..< min(parts.count, 4)]
            groupPart = parts.count == 5 ? parts[4] : nil
        case "v2":  // SEQUENCE:COLLECTED:SINCE[:GROUP]
            guard (5...6).contains(parts.count) else { return nil }
            numberParts = parts[2 ..< 5]
            groupPart = parts.count == 6 ? parts[5] : nil
        case "v3":  // SEQUENCE:COLLECTED:SINCE:WHOLE[:GROUP]
            guard (6...7).contains(parts.count), ["0", "1"].contains(parts[5]) else { return nil }
            numberParts = parts[2 ..< 5]
            groupPart = parts.count == 7 ? parts[6] : nil
        default:
            return nil
        }
        let numbers = numberParts.compactMap(Self.number)
        guard numbers.count == numberParts.count else { return nil }
        let sequence = numbers[0]
        let collected = numbers.count > 1 ? numbers[1] : 0
        let since = numbers.count > 2 ? numbers[2] : sequence
        guard since <= sequence else { return nil }
        if let groupPart, !SyncGroup.isGroupID(groupPart) { return nil }
        let continues = switch parts[0] {
        case "v3": parts[5] == "1"
        // What the second version's pages of a pull without a token looked like (see above).
        case "v2": since == 0 && sequence > 0
        default: false
        }
        self.init(sequence: sequence, collected: collected, since: since, group: groupPart, continuesAPullWithoutToken: continues)
        isFirstVersion = parts[0] == "v1"
    }

    init(sequence: Int64, collected: Int64, since: Int64? = nil, group: String? = nil, continuesAPullWithoutToken: Bool = false) {
        self.sequence = sequence
        self.collected = collected
        self.since = since ?? sequence
        self.group = group
        self.continuesAPullWithoutToken = continuesAPullWithoutToken
    }

    private static func number(_ text: String) -> Int64? {
        guard let number = Int64(text), number >= 0 else { return nil }
        return number
    }
}
