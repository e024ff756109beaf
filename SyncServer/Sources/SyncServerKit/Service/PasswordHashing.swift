import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Passwords are kept as bcrypt hashes of their SHA-256 (so every byte counts: bcrypt reads 72),
/// computed on NIO's blocking thread pool, never on an event loop.
struct PasswordHashing: Sendable {
    let cost: UInt8

    func hash(_ password: String) async throws -> String {
        let input = Self.prehash(password), cost = cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(input, cost: cost) }
    }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        let input = Self.prehash(password)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(input, hash: hash) }
    }

    private static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}

/// Session tokens: 32 random bytes, base64url; the server keeps only their SHA-256.
enum SessionToken {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
