/// A fenced code block of a Markdown document.
struct CodeBlock: Equatable {
    /// The fence's info string: `swift`, `sql`, `xml`, `sh`, `text`; empty when the fence names none.
    let language: String
    /// The block's text, each line ending in a newline.
    let text: String
    /// Why the block is not compiled, from a `<!-- not compiled: … -->` line just before its
    /// fence; nil for a block that must be compiled.
    let notCompiledReason: String?
    /// The line of the opening fence, counted from 1.
    let line: Int
}

/// Reads the code blocks of a document and the sample regions of a Swift file.
enum MarkdownCodeBlocks {
    static let notCompiledPrefix = "<!-- not compiled: "
    static let notCompiledSuffix = " -->"

    /// Every fenced block of `markdown`, in order.
    static func blocks(in markdown: String) -> [CodeBlock] {
        var blocks: [CodeBlock] = []
        var open: (language: String, reason: String?, line: Int, lines: [Substring])?
        var previous: Substring = ""
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var current = open {
                if line == "```" {
                    let text = current.lines.map { $0 + "\n" }.joined()
                    blocks.append(CodeBlock(language: current.language, text: text, notCompiledReason: current.reason, line: current.line))
                    open = nil
                } else {
                    current.lines.append(line)
                    open = current
                }
            } else if line.hasPrefix("```") {
                open = (String(line.dropFirst(3)), notCompiledReason(previous), index + 1, [])
            }
            previous = line
        }
        return blocks
    }

    /// The reason in a `<!-- not compiled: reason -->` line, or nil for any other line.
    static func notCompiledReason(_ line: Substring) -> String? {
        guard line.hasPrefix(notCompiledPrefix), line.hasSuffix(notCompiledSuffix) else { return nil }
        return String(line.dropFirst(notCompiledPrefix.count).dropLast(notCompiledSuffix.count))
    }

    /// Every region between `// sample-begin` and `// sample-end`, with the region's common
    /// indentation removed.
    static func regions(in source: String) -> [String] {
        var regions: [String] = []
        var current: [Substring]?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingPrefix(while: \.isWhitespace)
            if trimmed == "// sample-begin" {
                current = []
            } else if trimmed == "// sample-end", let lines = current {
                let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }
                    .map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
                regions.append(lines.map { ($0.count >= indent ? $0.dropFirst(indent) : "") + "\n" }.joined())
                current = nil
            } else {
                current?.append(line)
            }
        }
        return regions
    }

    /// The block without its leading `import` lines (the sample files import at the top).
    static func withoutImports(_ block: String) -> String {
        var lines = block.split(separator: "\n", omittingEmptySubsequences: false)
        while let first = lines.first, first.hasPrefix("import ") || (first.isEmpty && lines.count > 1) {
            lines.removeFirst()
        }
        return lines.joined(separator: "\n")
    }
}
