import Crypto
import Foundation

/// The secret in a password-reset link. Only its SHA-256 is stored, so the database never holds
/// a usable token.
enum PasswordResetToken {
    /// A new token: 32 random bytes, base64url, fit for a URL.
    static func make() -> String {
        ServerKeys.randomBytes().base64URLEncoded
    }

    /// What the storage keeps and looks the token up by.
    static func hash(_ token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }
}
