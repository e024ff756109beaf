import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A helper process the tests start (a second writer, a process killed mid-write, the model-type
/// generator, a command-line tool, a server), its standard output and error read through pipes
/// or discarded, its standard input empty.
///
/// Started with `posix_spawn` rather than Foundation's `Process`: on Linux, `Process.run()` reads
/// each entry of `/proc/self/fd` by copying 256 bytes where a short name has fewer, and now and
/// then the copy runs off the end of a page and crashes the whole test process
/// (swift-corelibs-foundation#5472, fixed after this toolchain).
public final class ChildProcess: @unchecked Sendable {
    /// How a process ended.
    public enum Termination: Equatable, Sendable {
        case exited(status: Int32)
        case killed(signal: Int32)
    }

    /// Where one of the process's outputs goes.
    public enum Output: Sendable {
        /// To a pipe this process reads; read it, or a process that writes much will wait.
        case pipe
        case discarded
        /// To this process's own (the test log).
        case inherited
    }

    public struct SpawnFailed: Error, CustomStringConvertible {
        public let executable: String
        public let code: Int32
        public var description: String { "could not start \(executable): \(String(cString: strerror(code)))" }
    }

    public let pid: pid_t
    /// The read end of the process's standard output; nil when discarded.
    public let output: FileHandle?
    /// The read end of its standard error; nil when discarded.
    public let errors: FileHandle?
    /// How the process ended, once it has been reaped: behind `lock`.
    private var termination: Termination?
    private let lock = NSLock()

    /// Starts `executable` with `arguments`, in `environment` (the test process's own when nil).
    public convenience init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        standardOutput: Output = .pipe, standardError: Output = .pipe
    ) throws {
        let started = try Self.spawning.withLock {
            try Self.spawn(executable, arguments, environment: environment, standardOutput: standardOutput, standardError: standardError)
        }
        self.init(pid: started.pid, output: started.output, errors: started.errors)
    }

    private init(pid: pid_t, output: Int32?, errors: Int32?) {
        self.pid = pid
        self.output = output.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        self.errors = errors.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    /// Starts the process; returns it and the read ends of its pipes.
    private static func spawn(
        _ executable: URL, _ arguments: [String], environment: [String: String]?, standardOutput: Output, standardError: Output
    ) throws -> (pid: pid_t, output: Int32?, errors: Int32?) {
        let output = standardOutput == .pipe ? try Self.makePipe() : nil
        let errors = standardError == .pipe ? try Self.makePipe() : nil
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        for (destination, pipe, descriptor) in [(standardOutput, output, STDOUT_FILENO), (standardError, errors, STDERR_FILENO)] {
            if let pipe {
                posix_spawn_file_actions_adddup2(&actions, pipe.write, descriptor)
            } else if destination == .discarded {
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            }
        }
        // The child starts with no signal blocked and every signal's default action, whatever
        // the test process set for itself (a signal it ignores would stay ignored across exec).
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let environmentStrings = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            for string in argv + (environmentStrings ?? []) { free(string) }
        }
        var pid: pid_t = 0
        let code: Int32
        if var environmentStrings {
            code = posix_spawn(&pid, executable.path, &actions, &attributes, argv, &environmentStrings)
        } else {
            code = posix_spawn(&pid, executable.path, &actions, &attributes, argv, environ)
        }
        for pipe in [output, errors] {
            if let pipe { close(pipe.write) }
        }
        guard code == 0 else {
            for pipe in [output, errors] {
                if let pipe { close(pipe.read) }
            }
            throw SpawnFailed(executable: executable.path, code: code)
        }
        return (pid, output?.read, errors?.read)
    }

    /// Sends `signal` to the process, unless it has been waited for.
    public func kill(_ signal: Int32 = SIGKILL) {
        lock.withLock {
            if termination == nil { Self.send(signal, to: pid) }
        }
    }

    private static func send(_ signal: Int32, to pid: pid_t) {
        #if canImport(Glibc)
        _ = Glibc.kill(pid, signal)
        #else
        _ = Darwin.kill(pid, signal)
        #endif
    }

    /// How the process ended, once it has; nil while it runs.
    public var ended: Termination? {
        lock.withLock {
            if termination == nil {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { termination = Self.termination(from: status) }
            }
            return termination
        }
    }

    /// Waits for the process to end: call it once the process is ending (killed, or its output
    /// read to the end), since the calling thread waits.
    @discardableResult
    public func waitUntilEnded() -> Termination {
        if let ended = lock.withLock({ termination }) { return ended }
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, 0)
        } while result == -1 && errno == EINTR
        return lock.withLock {
            // Reaped meanwhile by `ended` on another thread, which recorded how.
            if result == pid { termination = Self.termination(from: status) }
            guard let termination else { fatalError("waitpid(\(pid)) failed: \(String(cString: strerror(errno)))") }
            return termination
        }
    }

    /// A signal ended the process where its exit status was wanted.
    public struct EndedBySignal: Error {
        public let termination: Termination
    }

    /// Waits for the process to end, as ``waitUntilEnded()`` does, and returns its exit status;
    /// throws ``EndedBySignal`` when a signal ended it.
    public func waitForExitStatus() throws -> Int32 {
        let termination = waitUntilEnded()
        guard case .exited(let status) = termination else { throw EndedBySignal(termination: termination) }
        return status
    }

    /// The exit status is in bits 8–15 when the low seven bits are 0; otherwise they name the
    /// signal that ended the process.
    private static func termination(from status: Int32) -> Termination {
        let signal = status & 0x7F
        return signal == 0 ? .exited(status: (status >> 8) & 0xFF) : .killed(signal: signal)
    }

    /// A pipe whose ends close in any process this one starts, unless given as its output: two
    /// helpers started at once must not hold each other's pipes open. (Made under `spawning`, so
    /// that no helper starts between the pipe and the flag.)
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SpawnFailed(executable: "a pipe", code: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Held while pipes are made and a helper is started.
    private static let spawning = NSLock()
}
