import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Slow salted password hashing: bcrypt over the SHA-256 of the password.
///
/// Pre-hashing lets every password byte count (bcrypt reads only 72 bytes and stops at NUL).
/// bcrypt salts each hash itself and compares in constant time. The work runs on NIO's blocking
/// thread pool, never on an event loop or the cooperative pool. The algorithm name is stored
/// per account, so a later scheme can verify old hashes and upgrade them.
struct PasswordHasher: Sendable {
    static let algorithm = "bcrypt-sha256"

    let cost: UInt8
    /// A hash of nothing in particular, verified against for unknown usernames.
    private let decoyHash: String

    /// Computes one hash (the decoy) right away, at startup, so that logins never wait for it.
    init(cost: UInt8) {
        self.cost = cost
        decoyHash = Bcrypt.hash(Self.prehash("decoy"), cost: cost)
    }

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

    /// Spends exactly the time of a verification, for unknown usernames, so that timing doesn't
    /// reveal which accounts exist.
    func verifyNothing(_ password: String) async throws {
        _ = try await verify(password, hash: decoyHash, algorithm: Self.algorithm)
    }

    private static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }
}
