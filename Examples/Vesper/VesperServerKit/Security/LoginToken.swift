import Crypto
import Foundation

/// The `x-zumo-auth` login token: an HS256 JWT signed with a key derived from the server secret.
///
/// Claims: `uid` (account ID), `ver` (the account's credential version, bumped by a password
/// change so that old tokens stop working) and `exp` (Unix seconds). The stock client treats the
/// token as opaque.
struct LoginToken: Sendable, Equatable {
    var userID: Int64
    var credentialVersion: Int64
    var expiry: Int64

    private struct Claims: Codable {
        var uid: Int64
        var ver: Int64
        var exp: Int64
    }

    private static let header = Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8).base64URLEncoded

    func signed(with key: SecretKey) -> String {
        let claims = Claims(uid: userID, ver: credentialVersion, exp: expiry)
        let payload = ((try? JSONEncoder().encode(claims)) ?? Data()).base64URLEncoded
        let signingInput = Self.header + "." + payload
        let signature = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key.key)
        return signingInput + "." + Data(signature).base64URLEncoded
    }

    /// The token's claims when its signature is valid (compared in constant time); nil otherwise.
    /// Expiry and credential version are the caller's to check.
    static func verified(_ token: String, key: SecretKey) -> LoginToken? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == header, let signature = Data(base64URLEncoded: parts[2]) else { return nil }
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key.key),
            let payload = Data(base64URLEncoded: parts[1]),
            let claims = try? JSONDecoder().decode(Claims.self, from: payload)
        else { return nil }
        return LoginToken(userID: claims.uid, credentialVersion: claims.ver, expiry: claims.exp)
    }
}
