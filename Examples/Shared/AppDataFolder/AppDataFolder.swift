import Foundation

/// Where the example apps keep their data when no path is given, following the XDG base
/// directory rule: `$XDG_DATA_HOME/<app>` when that variable holds an absolute path (a relative
/// one is ignored, as the rule requires), else `$HOME/.local/share/<app>`.
///
/// ```swift
/// AppDataFolder.url(for: "rss", environment: ["XDG_DATA_HOME": "/data"])  // /data/rss
/// ```
public enum AppDataFolder {
    /// The folder for `app`; it may not exist yet.
    public static func url(
        for app: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        let dataHome: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            dataHome = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        return dataHome.appendingPathComponent(app, isDirectory: true)
    }
}
