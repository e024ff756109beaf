/// The shape of every tool's `--help` overview, so that `vesper`, `rss` and `vesper-server` read
/// alike: what the tool does, a few command lines to start with, then the details.
///
/// ```swift
/// CommandConfiguration(
///     commandName: "rss",
///     abstract: "An RSS reader on the command line, built on QSData.",
///     discussion: ToolHelp.discussion(
///         "Imports feeds into one SQLite database and reads them.",
///         examples: ["rss import ~/feeds", "rss list --unread"]))
/// ```
public enum ToolHelp {
    /// `summary`, then an `Examples:` block with each line indented, then `details` when given.
    public static func discussion(_ summary: String, examples: [String], details: String = "") -> String {
        let block = (["Examples:"] + examples.map { "  " + $0 }).joined(separator: "\n")
        return ([summary, block] + (details.isEmpty ? [] : [details])).joined(separator: "\n\n")
    }
}
