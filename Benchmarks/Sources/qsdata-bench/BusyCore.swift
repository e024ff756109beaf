import Foundation

/// `--busy-core`: another process keeps one core busy for the whole run, as a build or a sync
/// running beside an app would, so that a run can measure what QSData's two threads (the main
/// actor and the database queue) get when only one core is free most of the time.
///
/// The load is this benchmark's own binary started again with ``spinArgument``: one thread doing
/// integer arithmetic with no memory traffic and no system calls (so it takes CPU time from the
/// others and nothing else: no disk, no caches beyond its own registers), unpinned, at the normal
/// priority. It ends with the run, and on its own within a fraction of a second if the run is
/// killed (it looks at its parent every few million iterations).
enum BusyCore {
    /// The argument that makes the binary spin instead of benchmarking.
    static let spinArgument = "--spin-for-busy-core"

    /// Starts the spinning process; terminate it when the run ends.
    static func start() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [spinArgument, String(getpid())]
        try process.run()
        return process
    }

    /// Spins until the process that started it is gone.
    static func spinForever(parent: pid_t) -> Never {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        while true {
            for _ in 0..<(1 << 24) {
                // xorshift: a dependent chain of register operations the optimiser can't drop,
                // since the result decides when the loop checks its parent below.
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
            }
            if getppid() != parent || state == 0 { exit(0) }
        }
    }
}
