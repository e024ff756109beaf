import ArgumentParser
import DeadlineHTTP
import VesperSync

/// How long each call to the sync server may take: the options of every command that talks
/// to it. A call that runs out of time fails with a message naming the limit.
struct NetworkOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Seconds each request to the server may take in all: connecting, waiting, and the whole transfer.",
        valueName: "seconds"))
    var timeout: Double = 60

    @Option(name: .long, help: ArgumentHelp("Seconds to establish a connection to the server.", valueName: "seconds"))
    var connectTimeout: Double = 10

    func validate() throws {
        guard timeout > 0, connectTimeout > 0 else { throw ValidationError("--timeout and --connect-timeout must be positive.") }
    }

    /// The transport with these deadlines.
    var transport: VSNetworkTransport {
        VSNetworkTransport(deadlines: HTTPDeadlines(totalSeconds: timeout, connectSeconds: connectTimeout))
    }
}
