import Foundation

/// A tool's database as its `--database` option knows it: where it lives when no path is given,
/// and what the option's help adds for this tool.
///
/// The default is `<name>/<name>.sqlite` in the data folder, which ``DatabaseOptions`` names in
/// the help: `~/.local/share/rss/rss.sqlite` for `rss`.
public protocol ToolDatabase {
    /// The tool's folder in the data folder, and the database file's name without `.sqlite`.
    static var name: String { get }
    /// A sentence `--database`'s help adds after the default, such as what else the option
    /// accepts; empty when there is nothing to add.
    static var note: String { get }
}

extension ToolDatabase {
    public static var note: String { "" }
}

/// A tool database that commands open: into the tool's data controller, worked with on the main
/// actor and closed again. ``DatabaseOptions/withData(_:)`` does the opening and closing.
///
/// ```swift
/// enum RSSDatabase: OpenableDatabase {
///     static let name = "rss"
///     static func open(at url: URL) async throws -> RSSDataController { try await .open(at: url) }
///     static func close(_ data: RSSDataController) async throws { try await data.close() }
/// }
/// ```
public protocol OpenableDatabase: ToolDatabase {
    /// What commands work with: the app's data controller.
    associatedtype DataController
    /// Opens (creating when new) the database at `url` for one command. The default location's
    /// folder exists by then; what happens when a given path's folder is missing is the tool's rule.
    @MainActor static func open(at url: URL) async throws -> DataController
    /// Waits for pending writes and closes the database.
    @MainActor static func close(_ data: DataController) async throws
}
