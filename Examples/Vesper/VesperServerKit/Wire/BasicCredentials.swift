import Foundation

/// The username and password from an `Authorization: Basic …` header.
struct BasicCredentials: Sendable {
    /// Lower-cased, as the original stored and looked it up.
    var username: String
    var password: String

    /// Splits the decoded header at the first `:`; further colons belong to the password.
    /// Nil when the header is missing, not Basic, not base64 or has no colon.
    init?(authorization: String?) {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let decoded = String(data: data, encoding: .utf8),
            let colon = decoded.firstIndex(of: ":")
        else { return nil }
        username = decoded[..<colon].lowercased()
        password = String(decoded[decoded.index(after: colon)...])
    }

    /// The server's username rule: 5–150 UTF-16 units, an `@` and a `.`, no space, tab, CR or LF.
    static func isValidUsername(_ username: String) -> Bool {
        let length = username.utf16.count
        return (5...150).contains(length) && username.contains("@") && username.contains(".")
            && !username.contains(where: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" })
    }

    /// The server's password rule: 7–99 UTF-16 units, any characters.
    static func isValidPassword(_ password: String) -> Bool {
        (7..<100).contains(password.utf16.count)
    }
}
