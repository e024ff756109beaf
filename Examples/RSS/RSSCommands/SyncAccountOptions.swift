import ArgumentParser
import CommandLineTool
import DeadlineHTTP
import Foundation

/// The options `account create` and `account login` share.
struct SyncAccountOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The sync server, e.g. http://127.0.0.1:8090/", valueName: "url"))
    var server: String

    @Option(name: .long, help: ArgumentHelp("The account's username.", valueName: "name"))
    var username: String

    @Option(name: .long, help: ArgumentHelp("The password; read from the first line of standard input when left out.", valueName: "password"))
    var password: String?

    func serverURL() throws -> URL {
        guard let url = URL(string: server), url.host != nil, ["http", "https"].contains(url.scheme ?? "") else {
            throw ValidationError("--server must be an http(s) URL, such as http://127.0.0.1:8090/")
        }
        return url
    }

    func resolvedPassword() throws -> String {
        try PasswordOption.resolve(password)
    }
}

/// How long a command may talk to the sync server.
struct SyncNetworkOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Seconds each request to the server may take in all.", valueName: "seconds"))
    var timeout: Double = 60

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be positive.") }
    }

    var deadlines: HTTPDeadlines { HTTPDeadlines(totalSeconds: timeout, connectSeconds: min(10, timeout)) }
}
