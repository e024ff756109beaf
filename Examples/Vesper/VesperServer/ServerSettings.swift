import ArgumentParser
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
                throw ValidationError("cannot read the configuration file \(file): \(error.localizedDescription)")
            }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                guard let equals = trimmed.firstIndex(of: "=") else {
                    throw ValidationError("\(file), line \(index + 1): expected KEY=value")
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
}
