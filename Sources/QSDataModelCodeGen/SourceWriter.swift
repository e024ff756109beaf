/// Collects Swift source line by line, indenting blocks by four spaces.
struct SourceWriter {
    private(set) var text = ""
    private var depth = 0

    /// Adds one line at the current indentation; an empty line has no trailing spaces.
    mutating func line(_ content: String = "") {
        text += content.isEmpty ? "\n" : String(repeating: "    ", count: depth) + content + "\n"
    }

    /// Adds `opening`, the block's lines one level deeper, and a closing brace.
    mutating func block(_ opening: String, _ body: (inout SourceWriter) -> Void) {
        line(opening)
        indented(body)
        line("}")
    }

    /// Adds the lines one level deeper.
    mutating func indented(_ body: (inout SourceWriter) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }
}
