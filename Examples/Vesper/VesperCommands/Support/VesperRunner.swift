import ArgumentParser
import Foundation
import QSData
import VesperCore
import VesperSync

/// What one run of `vesper` printed and how it ended.
public struct VesperRunResult: Sendable, Equatable {
    /// What goes to standard output.
    public var output: String
    /// What goes to standard error: empty, or one line saying what went wrong.
    public var errorOutput: String
    /// 0 on success.
    public var exitCode: Int32
}

/// Runs `vesper` with arguments, in-process: the executable and the tests both come through here.
@MainActor
public enum VesperRunner {
    /// Parses `arguments` (without the program name), runs the command and returns its output.
    /// Never throws: a failure becomes one line of error output and a non-zero exit code.
    public static func run(_ arguments: [String], standardInput: @escaping () -> String? = readStandardInput) async -> VesperRunResult {
        let subcommand: any VesperSubcommand
        do {
            var command = try Vesper.parseAsRoot(arguments)
            guard let parsed = command as? any VesperSubcommand else {
                // `vesper`, `vesper help add`: the built-in commands report help as an error.
                try command.run()
                return VesperRunResult(output: "", errorOutput: "", exitCode: 0)
            }
            subcommand = parsed
        } catch {
            let code = Vesper.exitCode(for: error)
            let message = Vesper.fullMessage(for: error) + "\n"
            return code == .success
                ? VesperRunResult(output: message, errorOutput: "", exitCode: 0)
                : VesperRunResult(output: "", errorOutput: message, exitCode: code.rawValue)
        }
        do {
            let output = try await subcommand.execute(CommandContext(readStandardInput: standardInput))
            return VesperRunResult(output: output, errorOutput: "", exitCode: 0)
        } catch {
            return VesperRunResult(output: "", errorOutput: "vesper: \(message(for: error))\n", exitCode: 1)
        }
    }

    /// One line (schema mismatches excepted) saying what went wrong.
    static func message(for error: any Error) -> String {
        switch error {
        case let error as VesperError: error.description
        case let error as QSDataError: error.description
        case let error as SQLiteError: error.description
        case let error as QSWriteError: error.description
        case let error as VSAccountError: error.description
        case let error as SyncFailed: error.description
        case let error as CocoaError: error.localizedDescription
        default: String(describing: error)
        }
    }

    /// All of standard input, or nil when it is empty.
    nonisolated public static func readStandardInput() -> String? {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return data.isEmpty ? nil : String(decoding: data, as: UTF8.self)
    }
}
