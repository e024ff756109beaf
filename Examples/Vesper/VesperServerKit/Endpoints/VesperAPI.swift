import Foundation
import Hummingbird
import Logging

/// The server's state and the helpers every endpoint shares; the endpoints themselves are
/// extensions in this folder, one file per group.
struct VesperAPI: Sendable {
    let configuration: VesperServerConfiguration
    let storage: any VesperStorage
    let blobBytes: any BlobByteStore
    let keys: ServerKeys
    let hasher: PasswordHasher
    let throttle: LoginThrottle
    let clock: ServerClock

    /// `notes` returns changes since the token date minus 10 minutes.
    static let notesOverlap: Int64 = 10 * 60 * 1000

    /// The account named by a valid, unexpired, unrevoked `x-zumo-auth` token; 401 otherwise.
    func authenticate(_ request: Request) async throws -> Account {
        let login = try verifiedLogin(request)
        guard let account = try await storage.account(id: login.id), account.credentialVersion == login.credentialVersion
        else { throw APIError.unauthorized }
        return account
    }

    /// The account named by a validly signed, unexpired `x-zumo-auth` token, for a sync call,
    /// which checks in its own transaction that the token is not revoked (saving a query);
    /// 401 otherwise.
    func verifiedLogin(_ request: Request) throws(APIError) -> SyncAccount {
        guard let header = request.headers[.zumoAuth],
            let token = LoginToken.verified(header, key: keys.loginTokens),
            clock.milliseconds() / 1000 < token.expiry
        else { throw .unauthorized }
        return SyncAccount(id: token.userID, credentialVersion: token.credentialVersion)
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
