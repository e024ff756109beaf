import ArgumentParser
import Foundation

/// `--json`: the option of every command that prints results, with one wording and one meaning
/// in every tool: the results go to standard output as JSON (``JSONOutput``) instead of text.
public struct OutputOptions: ParsableArguments, Sendable {
    /// Whether `--json` was given.
    @Flag(help: "Print JSON instead of text, for scripts.")
    public var json = false

    /// The options as parsing starts them: text.
    public init() {}
}

/// The JSON the tools print: pretty, keys sorted, slashes unescaped, dates in ISO 8601.
///
/// ```swift
/// Console.current.line(try JSONOutput.string(feeds))
/// let feeds = try JSONOutput.decoder().decode([FeedJSON].self, from: data)   // in a script or test
/// ```
public enum JSONOutput {
    /// `value` as JSON text, without a final newline.
    public static func string(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A decoder for what ``string(_:)`` writes.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
