/// The SQL for the default a table declares for a column, from the text SQLite keeps of the
/// declaration (`pragma_table_info`'s `dflt_value`): as written, without the parentheses of an
/// expression, and a bare word or a quoted identifier (`"x"`, `` `x` ``, `[x]`) standing for a
/// string, as SQLite reads it there.
enum ColumnDefault {
    private static let keywords: Set<String> = ["NULL", "TRUE", "FALSE", "CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"]

    /// An expression for an `UPDATE … SET column = …`; NULL when the table declares no default.
    static func expression(declared text: String?) -> String {
        guard let text else { return "NULL" }
        if keywords.contains(text.uppercased()) { return text }
        for (open, close) in [("\"", "\""), ("`", "`"), ("[", "]")] where text.count >= 2 && text.hasPrefix(open) && text.hasSuffix(close) {
            return stringLiteral(String(text.dropFirst().dropLast()).replacingOccurrences(of: close + close, with: close))
        }
        if isBareWord(text) { return stringLiteral(text) }
        return "(\(text))"
    }

    private static func isBareWord(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    private static func stringLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
