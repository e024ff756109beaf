/// A problem in a feed document that the parser recovered from.
///
/// Real feeds are often not well-formed XML: a bare `&` in a title, a control character pasted
/// into a description, bytes that are not UTF-8, a download cut off at the end. The parser reads
/// such a document as well as it can, keeps every item it could read completely, and lists what
/// it repaired or skipped here, so that an app can tell its user why a feed looks odd instead of
/// losing the feed or hiding the problem.
///
/// One warning stands for every occurrence of one kind of problem: ``line`` is where the first
/// one is, ``occurrences`` how many there were.
public struct FeedParseWarning: Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Problem: Sendable, Hashable {
        /// An `&` that starts no entity or character reference; it was read as the text `&`.
        case bareAmpersand
        /// A character XML does not allow (a control character such as U+000B, or a character
        /// reference to one); vertical tabs and form feeds became spaces, the others U+FFFD.
        case forbiddenCharacter
        /// Bytes that are not UTF-8 in a document that is meant to be; each was read as the
        /// windows-1252 character it would be there.
        case invalidUTF8
        /// The document ended before its root element was closed (a cut-off download). Items
        /// that were complete are kept; the unfinished one is dropped.
        case truncated
        /// Any other XML error, with the XML parser's error code and its own description. The
        /// parser carried on after it (or, where it could not, kept what came before it).
        case malformedXML(code: Int, message: String)
    }

    /// What was wrong.
    public var problem: Problem
    /// The 1-based line of the first occurrence.
    public var line: Int
    /// How many times the problem occurred in the document (at least 1).
    public var occurrences: Int

    public init(problem: Problem, line: Int, occurrences: Int = 1) {
        self.problem = problem
        self.line = line
        self.occurrences = occurrences
    }

    /// One line for a person, for example `line 4: a bare "&" read as text (3 times)`.
    public var description: String {
        let times = occurrences > 1 ? " (\(occurrences) times)" : ""
        return "line \(line): \(problemDescription)\(times)"
    }

    private var problemDescription: String {
        switch problem {
        case .bareAmpersand: return "a bare \"&\" read as text"
        case .forbiddenCharacter: return "a character XML does not allow, replaced"
        case .invalidUTF8: return "bytes that are not UTF-8, read as windows-1252"
        case .truncated: return "the document ends before it is complete; the unfinished item was dropped"
        case .malformedXML(let code, let message): return "\(message) (libxml2 error \(code))"
        }
    }
}

/// Collects the problems found while reading one document: one ``FeedParseWarning`` per kind of
/// problem.
///
/// The document is read in passes (encoding, characters, entities, then the XML parser), each
/// noting what it repairs, so a kind of problem is first noted by the earliest pass that meets
/// it, which is also the earliest place in the document for it.
struct RecoveryLog {
    private var noted: [FeedParseWarning] = []

    /// The warnings in the order of the lines they start on.
    var warnings: [FeedParseWarning] {
        noted.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
    }

    /// Records one occurrence of `problem` at `line`.
    mutating func note(_ problem: FeedParseWarning.Problem, line: @autoclosure () -> Int) {
        if let index = noted.firstIndex(where: { $0.problem == problem }) {
            noted[index].occurrences += 1
        } else {
            noted.append(FeedParseWarning(problem: problem, line: line()))
        }
    }

    /// Records one occurrence of `problem` at byte `offset` of `bytes`; the line is counted only
    /// for the first occurrence of each problem.
    mutating func note(_ problem: FeedParseWarning.Problem, at offset: Int, in bytes: [UInt8]) {
        note(problem, line: Self.line(of: offset, in: bytes))
    }

    /// The 1-based line that byte `offset` is on.
    static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        var line = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte == UInt8(ascii: "\n") { line += 1 }
        return line
    }
}
