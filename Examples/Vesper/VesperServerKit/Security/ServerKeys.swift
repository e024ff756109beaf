import Crypto
import Foundation

/// The keys the server derives from its one secret, each for one purpose (HKDF-SHA256).
struct ServerKeys: Sendable {
    let loginTokens: SecretKey
    let blobURLs: SecretKey
    /// The text key used when no explicit text keys are configured, with ID 0.
    let defaultTextKey: SecretKey

    init(secret: String) {
        let input = SymmetricKey(data: Data(secret.utf8))
        func derive(_ purpose: String) -> SecretKey {
            SecretKey(
                HKDF<SHA256>.deriveKey(
                    inputKeyMaterial: input, salt: Data("vesper-server".utf8), info: Data(purpose.utf8),
                    outputByteCount: 32))
        }
        loginTokens = derive("login tokens")
        blobURLs = derive("blob URLs")
        defaultTextKey = derive("note text key 0")
    }

    /// 32 random bytes from the system's secure generator: server secrets and reset tokens.
    static func randomBytes() -> Data {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
    }

    /// A new random secret: 32 bytes, base64.
    static func randomSecret() -> String {
        randomBytes().base64EncodedString()
    }
}

/// Key bytes that can cross concurrency domains (swift-crypto's `SymmetricKey` is not
/// `Sendable` on every platform); ``key`` makes the `SymmetricKey` where it is used.
struct SecretKey: Sendable {
    private let bytes: Data

    init(_ key: SymmetricKey) {
        bytes = key.withUnsafeBytes { Data($0) }
    }

    init(bytes: Data) {
        self.bytes = bytes
    }

    var key: SymmetricKey { SymmetricKey(data: bytes) }
}

extension Data {
    /// base64url without padding (RFC 4648 §5), for tokens and URLs.
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    init?(base64URLEncoded string: some StringProtocol) {
        var base64 = string.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
