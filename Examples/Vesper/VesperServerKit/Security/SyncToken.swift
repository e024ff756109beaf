import Foundation

/// The `x-vesper-synctoken` value (PROTOCOL.md, "Sync token"), opaque to clients.
///
/// The server issues version 2, `base64("2:<userID>:<milliseconds>")`, which binds the token to
/// its user, so a client that signs out and in as someone else mid-sync can't use it. It still reads the original version 1,
/// `base64("1:<milliseconds>")`. A token that cannot be decoded, has
/// an unknown version or a non-numeric date, or names another user, counts as absent (a full
/// download, always safe); a date in the future is clamped to now by the storage.
enum SyncToken {
    static func encode(userID: Int64, date: Int64) -> String {
        Data("2:\(userID):\(date)".utf8).base64EncodedString()
    }

    /// The date the token carries, or nil when it is absent or unusable for `userID`.
    static func date(from token: String?, userID: Int64) -> Int64? {
        guard let token, let data = Data(base64Encoded: token.trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.first {
        case "1" where parts.count == 2:
            return milliseconds(parts[1])
        case "2" where parts.count == 3:
            guard Int64(parts[1]) == userID else { return nil }
            return milliseconds(parts[2])
        default:
            return nil
        }
    }

    private static func milliseconds(_ text: Substring) -> Int64? {
        guard let value = Int64(text), value >= 0 else { return nil }
        return value
    }
}
