import ArgumentParser
import DeadlineHTTP
import VesperSync

/// How long a command may talk to the sync server: the options of every command that does.
/// `--timeout` bounds the whole command's network work (every request of a sync, logins
/// included), and a call that runs out of time fails with a message naming the limit.
struct NetworkOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Seconds the command may spend talking to the server in all: every request, each one's connecting, waiting and transfer.",
        valueName: "seconds"))
    var timeout: Double = 60

    @Option(name: .long, help: ArgumentHelp("Seconds to establish a connection to the server.", valueName: "seconds"))
    var connectTimeout: Double = 10

    func validate() throws {
        guard timeout > 0, connectTimeout > 0 else { throw ValidationError("--timeout and --connect-timeout must be positive.") }
    }

    /// A transport with these deadlines, whose calls share one `--timeout` counted from now.
    var transport: VSNetworkTransport {
        let deadlines = HTTPDeadlines(totalSeconds: timeout, connectSeconds: connectTimeout)
        return VSNetworkTransport(deadlines: deadlines, runLimit: deadlines.total)
    }
}
