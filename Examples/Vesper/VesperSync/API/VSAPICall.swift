import Foundation

/// Gives user-level calls their login token. The account implements it; the API layer knows no
/// credentials.
@MainActor
public protocol VSAPIAuthenticator: AnyObject {
    /// The current token, logging in first when there is none.
    func token() async throws -> String
    /// The server refused `token` with 401: forget it (if it is still the current one) and
    /// return a fresh one from a new login.
    func token(replacing rejected: String) async throws -> String
}

/// One API request, sent once. A user-level call carries the login token in `x-zumo-auth`; on a
/// 401 it asks for a new login once and sends the identical request again (PROTOCOL.md, "Accounts"). A
/// second 401 is the result. A call that can't get a token stops there (never sent without one).
@MainActor
final class VSAPICall {
    let request: VSHTTPRequest
    let authenticated: Bool

    init(request: VSHTTPRequest, authenticated: Bool) {
        self.request = request
        self.authenticated = authenticated
    }

    func run(transport: any VSHTTPTransport, authenticator: (any VSAPIAuthenticator)?) async -> VSAPIResult {
        guard authenticated else { return await send(request, transport: transport) }
        guard let authenticator else { return VSAPIResult(request: request, error: .notLoggedIn("no account")) }
        let token: String
        do {
            token = try await authenticator.token()
        } catch {
            return VSAPIResult(request: request, error: .notLoggedIn(String(describing: error)))
        }
        let first = await send(signed(token), transport: transport)
        guard first.statusCode == 401 else { return first }
        let renewed: String
        do {
            renewed = try await authenticator.token(replacing: token)
        } catch {
            var failed = first
            failed.error = .notLoggedIn(String(describing: error))
            return failed
        }
        return await send(signed(renewed), transport: transport)
    }

    private func signed(_ token: String) -> VSHTTPRequest {
        var signed = request
        signed.headers[VSAPICaller.authHeader] = token
        return signed
    }

    private func send(_ request: VSHTTPRequest, transport: any VSHTTPTransport) async -> VSAPIResult {
        do {
            return VSAPIResult(request: request, response: try await transport.send(request))
        } catch {
            return VSAPIResult(request: request, error: .transport(Self.reason(error)))
        }
    }

    private static func reason(_ error: any Error) -> String {
        (error as? URLError).map { "\($0.code.rawValue): \($0.localizedDescription)" } ?? String(describing: error)
    }
}
