import Crypto
import Foundation

/// A short-lived, signed permission to PUT or GET one blob, carried in the URL itself
/// because the blob PUT and the download redirect carry no login token.
///
/// Form: `base64url(JSON claims) + "." + base64url(HMAC-SHA256(claims))`.
struct BlobCapability: Sendable, Equatable, Codable {
    enum Operation: String, Codable, Sendable {
        case put, get
    }

    var operation: Operation
    var userID: Int64
    var name: String
    /// Unix milliseconds after which the capability is refused.
    var expiry: Int64
    /// base64 MD5 the uploaded bytes must have (uploads only, when the client gave one).
    var md5: String?
    /// The exact length the upload must have (uploads only, when the client gave one).
    var contentLength: Int64?
    var contentType: String?

    private enum CodingKeys: String, CodingKey {
        case operation = "op", userID = "uid", name = "n", expiry = "exp", md5 = "md5", contentLength = "len"
        case contentType = "type"
    }

    func signed(with key: SecretKey) -> String {
        let claims = ((try? JSONEncoder().encode(self)) ?? Data()).base64URLEncoded
        let signature = HMAC<SHA256>.authenticationCode(for: Data(claims.utf8), using: key.key)
        return claims + "." + Data(signature).base64URLEncoded
    }

    /// The capability when its signature is valid; expiry is the caller's to check.
    static func verified(_ token: String, key: SecretKey) -> BlobCapability? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let signature = Data(base64URLEncoded: parts[1]),
            HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(parts[0].utf8), using: key.key),
            let claims = Data(base64URLEncoded: parts[0])
        else { return nil }
        return try? JSONDecoder().decode(BlobCapability.self, from: claims)
    }
}
