import Foundation

/// Finds the public members a type declares in its own declaration and its extensions, by
/// reading the Swift source, and names each as a DocC link does: `name(label:label:)` for a
/// function, `name` for a property.
struct PublicMembers {
    let typeName: String

    /// The links of the public members declared in `source`, one per declaration (so overloads
    /// with the same labels appear once each).
    func links(in source: String) -> [String] {
        var links: [String] = []
        var depth = 0
        var insideType = false
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map { Self.code(of: $0) }
        for (index, line) in lines.enumerated() {
            if depth == 0 { insideType = opensType(line) }
            if insideType, depth == 1, let declaration = Self.declaration(in: line) {
                let rest = lines[index...].joined(separator: "\n")
                links.append(declaration.isFunction ? Self.functionLink(declaration.name, signature: rest) : declaration.name)
            }
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
        }
        return links
    }

    /// Whether the line declares the type or one of its extensions.
    private func opensType(_ line: String) -> Bool {
        let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "{" })
        guard let position = words.firstIndex(where: { $0 == "class" || $0 == "struct" || $0 == "extension" }) else { return false }
        return words.indices.contains(position + 1) && words[position + 1] == typeName
    }

    /// The name of the public `func`, `var` or `let` the line declares, if it declares one.
    private static func declaration(in line: String) -> (name: String, isFunction: Bool)? {
        let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
        guard words.first == "public" else { return nil }
        guard let keyword = words.firstIndex(where: { $0 == "func" || $0 == "var" || $0 == "let" }),
              words.indices.contains(keyword + 1) else { return nil }
        let name = words[keyword + 1].prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
        return (String(name), words[keyword] == "func")
    }

    /// `name(label:…)`, from the parameter list that follows the name (and its generic
    /// parameters) in `signature`.
    private static func functionLink(_ name: String, signature: String) -> String {
        guard let nameRange = signature.range(of: "func \(name)") else { return name }
        var depth = 0
        var parameters = ""
        var started = false
        var previous: Character = " "
        for character in signature[nameRange.upperBound...] {
            switch character {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case "<": depth += 1
            case ">" where previous != "-": depth -= 1
            default: break
            }
            previous = character
            if !started {
                if character == "(" && depth == 1 { started = true }
                continue
            }
            if depth == 0 { break }
            parameters.append(depth == 1 && character == "," ? "\u{0}" : character)
        }
        let labels = parameters.split(separator: "\u{0}").compactMap { parameter in
            parameter.trimmingCharacters(in: .whitespacesAndNewlines)
                .split(separator: ":").first?.split(separator: " ").first.map { "\($0):" }
        }
        return "\(name)(\(labels.joined()))"
    }

    /// The line without its comment (a `//` outside a string literal).
    private static func code(of line: Substring) -> String {
        var inString = false
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if character == "\"" { inString.toggle() }
            if !inString, character == "/", previous == "/" { return String(line[..<line.index(before: index)]) }
            previous = character
        }
        return String(line)
    }
}
