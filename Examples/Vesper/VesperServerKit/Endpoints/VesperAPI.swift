import Foundation
import Hummingbird
import Logging

/// The server's state and the helpers every endpoint shares; the endpoints themselves are
/// extensions in this folder, one file per group.
struct VesperAPI: Sendable {
    let configuration: VesperServerConfiguration
    let storage: any VesperStorage
    let blobFiles: BlobFileStore
    let keys: ServerKeys
    let hasher: PasswordHasher
    let throttle: LoginThrottle

    /// `notes` returns changes since the token date minus 10 minutes.
    static let notesOverlap: Int64 = 10 * 60 * 1000

    static func nowMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The account named by a valid, unexpired, unrevoked `x-zumo-auth` token; 401 otherwise.
    func authenticate(_ request: Request) async throws -> Account {
        guard let header = request.headers[.zumoAuth],
            let token = LoginToken.verified(header, key: keys.loginTokens),
            Self.nowMilliseconds() / 1000 < token.expiry,
            let account = try await storage.account(id: token.userID),
            account.credentialVersion == token.credentialVersion
        else { throw APIError.unauthorized }
        return account
    }

    func collectJSON(_ request: Request) async throws -> ByteBuffer {
        try await request.collectBody(limit: configuration.maxBodyBytes)
    }

    /// The base for URLs this server hands out for itself (blob upload and download).
    func publicBaseURL(for request: Request) -> String {
        if let url = configuration.publicBaseURL {
            let text = url.absoluteString
            return text.hasSuffix("/") ? text : text + "/"
        }
        let authority = request.head.authority ?? "\(configuration.hostname):\(configuration.port)"
        return "http://\(authority)/"
    }
}
