import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Slow salted password hashing: bcrypt over the SHA-256 of the password.
///
/// Pre-hashing lets every password byte count (bcrypt reads only 72 bytes and stops at NUL).
/// bcrypt salts each hash itself and compares in constant time. The work runs on NIO's blocking
/// thread pool, never on an event loop or the cooperative pool. The algorithm name is stored
/// per account (§2.2 recommended), so a later scheme can verify old hashes and upgrade them.
struct PasswordHasher: Sendable {
    static let algorithm = "bcrypt-sha256"

    let cost: UInt8

    func hash(_ password: String) async throws -> String {
        let input = Self.prehash(password)
        let cost = cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(input, cost: cost) }
    }

    func verify(_ password: String, hash: String, algorithm: String) async throws -> Bool {
        guard algorithm == Self.algorithm else { return false }
        let input = Self.prehash(password)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(input, hash: hash) }
    }

    /// Spends the time of a verification, for unknown usernames, so timing doesn't reveal them.
    func verifyNothing(_ password: String) async throws {
        let input = Self.prehash(password)
        let cost = cost
        _ = try await NIOThreadPool.singleton.runIfActive {
            Bcrypt.verify(input, hash: Bcrypt.hash("not a password", cost: cost))
        }
    }

    private static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}
