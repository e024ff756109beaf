import ArgumentParser
import CommandLineTool
import Foundation
import VesperSync

/// The options `account create` and `account login` share.
struct AccountCredentials: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The sync server, e.g. http://127.0.0.1:8080/", valueName: "url"))
    var server: String

    @Option(name: .long, help: ArgumentHelp("Your email address.", valueName: "email"))
    var username: String

    @Option(name: .long, help: ArgumentHelp(
        "The password; read from the first line of standard input when left out.", valueName: "password"))
    var password: String?

    func serverURL() throws -> URL {
        guard let url = URL(string: server), url.host != nil else { throw VSAccountError.invalidServerURL(server) }
        return url
    }

    func resolvedPassword() throws -> String {
        try PasswordOption.resolve(password)
    }
}
