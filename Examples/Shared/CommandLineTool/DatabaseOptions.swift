import AppDataFolder
import ArgumentParser
import Foundation

/// `--database <path>`: the option every command of a tool that keeps a database takes, with one
/// wording in every tool and the XDG default.
///
/// ```swift
/// struct FeedsCommand: AsyncParsableCommand {
///     @OptionGroup var options: DatabaseOptions<RSSDatabase>
///
///     @MainActor func execute() async throws {
///         try await options.withData { data in … }   // opened, and closed also when `body` throws
///     }
/// }
/// ```
public struct DatabaseOptions<Database: ToolDatabase>: ParsableArguments, Sendable {
    /// The path given with `--database`, as typed; nil for the default.
    @Option(help: ArgumentHelp(
        "The database file, created on first use.",
        discussion: DatabaseOptions.defaultDescription + (Database.note.isEmpty ? "" : " " + Database.note),
        valueName: "path"))
    public var database: String?

    /// The options as parsing starts them: no path, so the default.
    public init() {}

    /// Options naming `database`, or the default when it is nil: for a command that picks its
    /// own database, such as a demo's scratch file.
    public init(database: String?) {
        self.database = database
    }

    /// The database file this run uses: the one given (`~` expanded), else the default.
    public var databaseURL: URL {
        if let database { return URL(fileURLWithPath: (database as NSString).expandingTildeInPath) }
        return Self.defaultDatabaseURL()
    }

    /// `$XDG_DATA_HOME/<name>/<name>.sqlite`, else `~/.local/share/<name>/<name>.sqlite`.
    public static func defaultDatabaseURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        AppDataFolder.url(for: Database.name, environment: environment).appendingPathComponent(Database.name + ".sqlite")
    }

    /// The default, in the words `--help` shows.
    static var defaultDescription: String {
        let file = "\(Database.name)/\(Database.name).sqlite"
        return "Default: $XDG_DATA_HOME/\(file), else ~/.local/share/\(file)."
    }
}

extension DatabaseOptions where Database: OpenableDatabase {
    /// Opens the database, runs `body` with its data controller, and closes it again whether or
    /// not `body` throws. Without `--database`, the default's folder is created first.
    ///
    /// When `body` throws, that error is what the command reports; a failure to close on top of
    /// it is added to its message rather than lost.
    @MainActor
    public func withData<Result>(_ body: @MainActor (Database.DataController) async throws -> Result) async throws -> Result {
        let url = databaseURL
        if database == nil { try Self.createFolder(of: url) }
        let data = try await Database.open(at: url)
        let result: Result
        do {
            result = try await body(data)
        } catch {
            do {
                try await Database.close(data)
            } catch let closing {
                throw DatabaseError.closeFailed(after: String(describing: error), reason: String(describing: closing))
            }
            throw error
        }
        try await Database.close(data)
        return result
    }

    private static func createFolder(of url: URL) throws {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw DatabaseError.cannotCreateFolder(path: folder.path, reason: error.localizedDescription)
        }
    }
}

/// Opening or closing a tool's database went wrong around the tool's own work.
public enum DatabaseError: Error, Equatable, CustomStringConvertible {
    /// The default database's folder could not be created.
    case cannotCreateFolder(path: String, reason: String)
    /// The command failed with `after`, and closing the database then failed too.
    case closeFailed(after: String, reason: String)

    public var description: String {
        switch self {
        case .cannotCreateFolder(let path, let reason): "Can't create the folder \(path) for the database: \(reason)."
        case .closeFailed(let after, let reason): "\(after) (closing the database failed too: \(reason))"
        }
    }
}
