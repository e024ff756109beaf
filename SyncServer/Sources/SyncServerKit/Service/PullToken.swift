import Foundation
import QSDataSync

/// A pull token: where the next pull starts (the account's sequence number of the last record
/// sent) and how far the account had been collected when the token was made, tied to this
/// database and to the group pulled, if any (each group has a sequence of its own). Opaque to
/// clients (URL-safe base64 of `v1:DATABASE:SEQUENCE:COLLECTED`, and `:GROUP` for a group's).
///
/// A token is good while no collection has gone past both of its numbers since: everything the
/// replica was sent up to its sequence number is still described by what the server holds,
/// deletions included.
struct PullToken: Equatable {
    var sequence: Int64
    var collected: Int64
    var group: String?

    /// The sequence number the account may have collected through while this token stays good.
    var horizon: Int64 { max(sequence, collected) }

    func text(databaseID: String) -> String {
        Data("v1:\(databaseID):\(sequence):\(collected)\(group.map { ":\($0)" } ?? "")".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A token this database made; nil for any other text. (Tokens made before collection
    /// existed have no collected number: 0.)
    init?(text token: String, databaseID: String) {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (3...5).contains(parts.count), parts[0] == "v1", parts[1] == databaseID,
              let sequence = Int64(parts[2]), sequence >= 0
        else { return nil }
        var collected: Int64 = 0
        if parts.count >= 4 {
            guard let number = Int64(parts[3]), number >= 0 else { return nil }
            collected = number
        }
        var group: String?
        if parts.count == 5 {
            guard SyncGroup.isGroupID(String(parts[4])) else { return nil }
            group = String(parts[4])
        }
        self.init(sequence: sequence, collected: collected, group: group)
    }

    init(sequence: Int64, collected: Int64, group: String? = nil) {
        self.sequence = sequence
        self.collected = collected
        self.group = group
    }
}
