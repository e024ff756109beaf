import Foundation

/// What the account refuses or fails at, each as one line for a terminal.
public enum VSAccountError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No account is set up for this database.
    case notSignedIn
    /// The username is not an email-like name of 5–150 characters without whitespace.
    case invalidUsername
    /// The password is not 7–99 characters without control characters.
    case invalidPassword
    /// The server already has an account with this username.
    case usernameTaken
    /// The server refused the username and password.
    case wrongCredentials
    /// A server URL that is not http(s).
    case invalidServerURL(String)
    /// A call failed.
    case callFailed(call: String, error: VSAPIError)
    /// The server answered with something the protocol does not allow.
    case unexpectedResponse(call: String, reason: String)
    /// A sync is already running.
    case syncInProgress
    case unreadableAccountFile(path: String, reason: String)
    case unwritableAccountFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .notSignedIn: "No sync account: run `vesper account login` or `vesper account create` first."
        case .invalidUsername: "The username must be an email address of 5 to 150 characters, without spaces."
        case .invalidPassword: "The password must be 7 to 99 characters long."
        case .usernameTaken: "The server already has an account with that username."
        case .wrongCredentials: "The server refused the username and password."
        case .invalidServerURL(let url): "\(url) is not an http or https URL."
        case .callFailed(let call, let error): "\(call): \(error)."
        case .unexpectedResponse(let call, let reason): "\(call): unexpected response (\(reason))."
        case .syncInProgress: "A sync is already running."
        case .unreadableAccountFile(let path, let reason): "Can't read the account file \(path): \(reason)."
        case .unwritableAccountFile(let path, let reason): "Can't write the account file \(path): \(reason)."
        }
    }
}
