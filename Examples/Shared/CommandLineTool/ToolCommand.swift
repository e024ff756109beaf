import ArgumentParser
import Foundation

/// The root command of one of the examples' executables (`vesper`, `rss`, `vesper-server`).
///
/// Each is an `AsyncParsableCommand` with typed options and subcommands, as in
/// swift-argument-parser's own examples. They run through ``run(_:console:)`` rather than the
/// library's `main()`, so that tests run exactly what the executable runs, in-process, with a
/// capturing ``Console``, and so that every failure is one line on standard error:
/// `vesper: There is no note with ID 42.`
public protocol ToolCommand: AsyncParsableCommand {}

extension ToolCommand {
    /// Parses `arguments` (without the program name) and runs the command with `console` as
    /// ``Console/current``; returns the exit status.
    ///
    /// Help goes to standard output with status 0. A usage error (a `ValidationError` from
    /// `validate()`, an unknown option, a value of the wrong type) is status 64; any other
    /// error is status 1. Either way it is one line on standard error, after the command's name.
    public static func run(_ arguments: [String], console: Console = .standard) async -> Int32 {
        await Console.$current.withValue(console) {
            do {
                var command = try parseAsRoot(arguments)
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
                return ExitCode.success.rawValue
            } catch {
                let status = exitCode(for: error)
                if status == .success {
                    let help = fullMessage(for: error)
                    if !help.isEmpty { console.line(help) }
                    return status.rawValue
                }
                let message = failureMessage(for: error)
                if !message.isEmpty {
                    let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: "; ")
                    console.errorLine("\(configuration.commandName ?? "error"): \(oneLine)")
                }
                return status.rawValue
            }
        }
    }

    /// Runs the command on the process's arguments and standard streams, and exits with its
    /// status: the whole of each executable's `main.swift`.
    public static func runAsProcess() async -> Never {
        Foundation.exit(await run(Array(CommandLine.arguments.dropFirst())))
    }

    /// What went wrong, in words: the error's own description, Foundation's for file errors.
    private static func failureMessage(for error: any Error) -> String {
        if let error = error as? CocoaError { return error.localizedDescription }
        return message(for: error)
    }

    /// Runs the command in-process with a capturing console, for tests.
    public static func runCapturing(_ arguments: [String], standardInput: String? = nil) async -> CommandRun {
        let (console, output, error) = Console.capturing(standardInput: standardInput)
        let status = await run(arguments, console: console)
        return CommandRun(output: output.text, errorOutput: error.text, exitCode: status)
    }
}

/// What one in-process run printed and how it ended.
public struct CommandRun: Sendable, Equatable {
    /// What went to standard output.
    public var output: String
    /// What went to standard error: empty, or one line saying what went wrong.
    public var errorOutput: String
    /// 0 on success.
    public var exitCode: Int32
}
