import Foundation
import Hummingbird
import Logging

/// createAccount, login, forgotpassword, resetpassword, changepasswordauthenticated, emailupdates (PROTOCOL.md, "Accounts").
extension VesperAPI {
    private struct CreateAccountBody: Decodable { var emailUpdates: Bool? }
    private struct LoginResponse: Encodable {
        var token: String
        var emailUpdates: Bool
    }
    private struct ForgotPasswordBody: Decodable { var username: String }
    private struct ChangePasswordBody: Decodable { var password: String }
    private struct ResetPasswordBody: Decodable {
        var token: String
        var password: String
    }
    private struct EmailUpdates: Codable { var emailUpdates: Bool }

    /// 204, or 400 with `VSErrorInvalidUsername`, `VSErrorInvalidPassword` or
    /// `VSErrorUsernameAlreadyExists`; 429 when the client address creates too many accounts.
    func createAccount(_ request: Request, context: VesperRequestContext) async throws -> Response {
        guard let credentials = BasicCredentials(authorization: request.headers[.authorization]) else {
            throw APIError.badRequest("the Authorization header must be Basic credentials")
        }
        guard BasicCredentials.isValidUsername(credentials.username) else {
            throw APIError.accountError("VSErrorInvalidUsername")
        }
        guard BasicCredentials.isValidPassword(credentials.password) else {
            throw APIError.accountError("VSErrorInvalidPassword")
        }
        let body = try JSONBody.decode(
            CreateAccountBody.self, from: try await collectJSON(request), empty: CreateAccountBody())
        let throttleKeys = ThrottlePolicy.createAccount(address: context.clientAddress, perMinute: throttle.limit)
        if let seconds = try await throttle.retryAfter(keys: throttleKeys) {
            context.logger.notice("Account creation throttled", metadata: ["address": "\(context.clientAddress)"])
            throw APIError.tooManyRequests(retryAfter: seconds)
        }
        try await throttle.recordFailure(keys: throttleKeys)
        if try await storage.account(username: credentials.username) != nil {
            throw APIError.accountError("VSErrorUsernameAlreadyExists")
        }
        let hash = try await hasher.hash(credentials.password)
        do {
            let id = try await storage.createAccount(
                username: credentials.username, passwordHash: hash, passwordAlgorithm: PasswordHasher.algorithm,
                emailUpdates: body.emailUpdates ?? false)
            context.logger.info("Account created", metadata: ["userID": "\(id)"])
        } catch StorageError.usernameTaken {
            throw APIError.accountError("VSErrorUsernameAlreadyExists")
        }
        return .empty(.noContent)
    }

    /// 200 `{"token","emailUpdates"}`; 400 for empty credentials; 401 for wrong ones;
    /// 429 once this username from this client address, or this address over all usernames,
    /// has too many recent failures (see ``ThrottlePolicy``).
    func login(_ request: Request, context: VesperRequestContext) async throws -> Response {
        guard let credentials = BasicCredentials(authorization: request.headers[.authorization]),
            !credentials.username.isEmpty, !credentials.password.isEmpty
        else { throw APIError.badRequest("the Authorization header must carry a username and password") }
        let throttleKeys = ThrottlePolicy.login(
            username: credentials.username, address: context.clientAddress, perMinute: throttle.limit)
        if let seconds = try await throttle.retryAfter(keys: throttleKeys) {
            context.logger.notice("Login throttled", metadata: ["address": "\(context.clientAddress)"])
            throw APIError.tooManyRequests(retryAfter: seconds)
        }
        guard let account = try await storage.account(username: credentials.username) else {
            try await hasher.verifyNothing(credentials.password)
            try await throttle.recordFailure(keys: throttleKeys)
            throw APIError.unauthorized
        }
        guard
            try await hasher.verify(
                credentials.password, hash: account.passwordHash, algorithm: account.passwordAlgorithm)
        else {
            try await throttle.recordFailure(keys: throttleKeys)
            throw APIError.unauthorized
        }
        try await throttle.forget(throttleKeys[0])
        let token = LoginToken(
            userID: account.id, credentialVersion: account.credentialVersion,
            expiry: clock.milliseconds(after: configuration.tokenLifetime) / 1000)
        return try .json(LoginResponse(token: token.signed(with: keys.loginTokens), emailUpdates: account.emailUpdates))
    }

    /// Always 204 once the body names a username, so the response never reveals whether
    /// the account exists. For an existing account, a single-use reset token is
    /// stored (hashed) and the reset link is logged in place of sending an email.
    func forgotPassword(_ request: Request, context: VesperRequestContext) async throws -> Response {
        let body = try JSONBody.decode(ForgotPasswordBody.self, from: try await collectJSON(request))
        let username = body.username.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !username.isEmpty else { throw APIError.badRequest("username is empty") }
        let throttleKeys = ThrottlePolicy.passwordReset(username: username, address: context.clientAddress, perMinute: throttle.limit)
        if let seconds = try await throttle.retryAfter(keys: throttleKeys) {
            throw APIError.tooManyRequests(retryAfter: seconds)
        }
        try await throttle.recordFailure(keys: throttleKeys)
        if let account = try await storage.account(username: username) {
            let token = PasswordResetToken.make()
            try await storage.savePasswordReset(
                tokenHash: PasswordResetToken.hash(token), userID: account.id,
                expiry: clock.milliseconds(after: configuration.passwordResetLifetime))
            // Stands in for the e-mail: the operator forwards the link, whose token the user
            // sends to `api/resetpassword` with a new password.
            context.logger.notice(
                "Password reset requested",
                metadata: [
                    "userID": "\(account.id)",
                    "link": "\(publicBaseURL(for: request))api/resetpassword?token=\(token)",
                ])
        }
        return .empty(.noContent)
    }

    /// Sets a new password with the token of a reset link: 204, after which the token is spent
    /// and every login token issued before is revoked; 400 for an invalid password; 403 for a
    /// token that is unknown, spent or expired; 429 after too many wrong tokens from one address.
    /// An invalid password doesn't spend the token.
    func resetPassword(_ request: Request, context: VesperRequestContext) async throws -> Response {
        let throttleKeys = ThrottlePolicy.resetToken(address: context.clientAddress, perMinute: throttle.limit)
        if let seconds = try await throttle.retryAfter(keys: throttleKeys) {
            throw APIError.tooManyRequests(retryAfter: seconds)
        }
        let body = try JSONBody.decode(ResetPasswordBody.self, from: try await collectJSON(request))
        guard BasicCredentials.isValidPassword(body.password) else {
            throw APIError.badRequest("VSErrorInvalidPassword")
        }
        let hash = try await hasher.hash(body.password)
        guard
            let userID = try await storage.takePasswordReset(
                tokenHash: PasswordResetToken.hash(body.token), now: clock.milliseconds())
        else {
            try await throttle.recordFailure(keys: throttleKeys)
            throw APIError.forbidden("the reset link is unknown, used or expired")
        }
        guard
            try await storage.changePassword(
                userID: userID, passwordHash: hash, passwordAlgorithm: PasswordHasher.algorithm)
        else { throw APIError.forbidden("no such account") }
        context.logger.notice("Password reset", metadata: ["userID": "\(userID)"])
        return .empty(.noContent)
    }

    /// 204; 400 for an invalid new password; 403 when the account is gone. Bumps the
    /// credential version, so every login token issued before stops working.
    func changePassword(_ request: Request, context: VesperRequestContext) async throws -> Response {
        let account = try await authenticate(request)
        let body = try JSONBody.decode(ChangePasswordBody.self, from: try await collectJSON(request))
        guard BasicCredentials.isValidPassword(body.password) else {
            throw APIError.badRequest("VSErrorInvalidPassword")
        }
        let hash = try await hasher.hash(body.password)
        guard
            try await storage.changePassword(
                userID: account.id, passwordHash: hash, passwordAlgorithm: PasswordHasher.algorithm)
        else { throw APIError.forbidden("no such account") }
        context.logger.info("Password changed", metadata: ["userID": "\(account.id)"])
        return .empty(.noContent)
    }

    /// GET: 200 `{"emailUpdates": bool}`.
    func emailUpdates(_ request: Request, context: VesperRequestContext) async throws -> Response {
        let account = try await authenticate(request)
        return try .json(EmailUpdates(emailUpdates: account.emailUpdates))
    }

    /// POST: 204; 400 unless `emailUpdates` is a boolean.
    func setEmailUpdates(_ request: Request, context: VesperRequestContext) async throws -> Response {
        let account = try await authenticate(request)
        let body = try JSONBody.decode(EmailUpdates.self, from: try await collectJSON(request))
        guard try await storage.setEmailUpdates(body.emailUpdates, userID: account.id) else {
            throw APIError.forbidden("no such account")
        }
        return .empty(.noContent)
    }
}
