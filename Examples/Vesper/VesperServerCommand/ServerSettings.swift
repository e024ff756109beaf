import Foundation

/// The server's settings by name: the environment, over an optional file of `KEY=value` lines
/// (blank lines and `#` comments ignored), so that every instance can read one shared file.
struct ServerSettings {
    private let values: [String: String]

    init(file: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        var values: [String: String] = [:]
        if let file {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw ServerSetupError.unreadableConfiguration(file: file, reason: error.localizedDescription)
            }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                guard let equals = trimmed.firstIndex(of: "=") else {
                    throw ServerSetupError.malformedConfigurationLine(file: file, line: index + 1)
                }
                let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
                values[key] = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            }
        }
        for (key, value) in environment where !value.isEmpty { values[key] = value }
        self.values = values
    }

    subscript(key: String) -> String? {
        values[key].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The setting `name` as a whole number, nil when unset; an error naming the setting when it
    /// is set to anything else (a typo is never silently ignored).
    func integer(_ name: String) throws -> Int? {
        guard let text = self[name] else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw ServerSetupError.notAWholeNumber(setting: name, value: text)
        }
        return value
    }

    /// `VESPER_TEXT_KEYS`: `1:<base64 32 bytes>,2:<…>`.
    static func textKeys(_ text: String) throws -> [Int: Data] {
        var keys: [Int: Data] = [:]
        for entry in text.split(separator: ",") {
            let parts = entry.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let id = Int(parts[0].trimmingCharacters(in: .whitespaces)),
                let key = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces))
            else { throw ServerSetupError.malformedTextKeys }
            keys[id] = key
        }
        return keys
    }
}

/// A setting or file the server needs before it can start is missing or wrong.
enum ServerSetupError: Error, Equatable, CustomStringConvertible {
    case unreadableConfiguration(file: String, reason: String)
    case malformedConfigurationLine(file: String, line: Int)
    case notAWholeNumber(setting: String, value: String)
    case malformedTextKeys
    case emptySecretFile(String)
    case cannotWriteSecret(String)

    var description: String {
        switch self {
        case .unreadableConfiguration(let file, let reason): "cannot read the configuration file \(file): \(reason)"
        case .malformedConfigurationLine(let file, let line): "\(file), line \(line): expected KEY=value"
        case .notAWholeNumber(let setting, let value): "\(setting) must be a whole number, not '\(value)'"
        case .malformedTextKeys: "VESPER_TEXT_KEYS must look like 1:<base64>,2:<base64>"
        case .emptySecretFile(let path): "the server secret file \(path) is empty"
        case .cannotWriteSecret(let path): "cannot write the server secret to \(path)"
        }
    }
}
