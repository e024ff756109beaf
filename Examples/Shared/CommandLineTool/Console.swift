import Foundation
import Synchronization

/// Where commands write, and where they read standard input. Commands read ``current``; tests
/// install a ``Console/capturing(standardInput:)`` console for the duration of a run, so commands
/// run in-process.
public struct Console: Sendable {
    /// Writes text to standard output as is (add the newline yourself).
    public var writeOutput: @Sendable (String) -> Void
    /// Writes text to standard error as is.
    public var writeError: @Sendable (String) -> Void
    /// Whether standard error is a terminal, which is where progress bars are drawn.
    public var isTerminal: Bool
    /// All of standard input, or nil when it is empty.
    public var readStandardInput: @Sendable () -> String?

    public init(
        writeOutput: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void, isTerminal: Bool,
        readStandardInput: @escaping @Sendable () -> String? = { nil }
    ) {
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.isTerminal = isTerminal
        self.readStandardInput = readStandardInput
    }

    /// The console of the running command.
    @TaskLocal public static var current = Console.standard

    /// The process's standard output and error.
    public static var standard: Console {
        Console(
            writeOutput: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            writeError: { text in FileHandle.standardError.write(Data(text.utf8)) },
            isTerminal: isatty(STDERR_FILENO) != 0,
            readStandardInput: {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                return data.isEmpty ? nil : String(decoding: data, as: UTF8.self)
            })
    }

    /// A console that keeps what is written, for tests, and reads `standardInput`.
    public static func capturing(standardInput: String? = nil) -> (console: Console, output: CapturedText, error: CapturedText) {
        let output = CapturedText()
        let error = CapturedText()
        let console = Console(
            writeOutput: { output.append($0) }, writeError: { error.append($0) }, isTerminal: false,
            readStandardInput: { standardInput })
        return (console, output, error)
    }

    /// Prints a line on standard output.
    public func line(_ text: String = "") {
        writeOutput(text + "\n")
    }

    /// Prints a line on standard error.
    public func errorLine(_ text: String) {
        writeError(text + "\n")
    }
}

/// Text written to a capturing console.
public final class CapturedText: Sendable {
    private let storage = Mutex("")

    func append(_ text: String) {
        storage.withLock { $0 += text }
    }

    /// Everything written so far.
    public var text: String { storage.withLock { $0 } }
}
