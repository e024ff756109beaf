import CommandLineTool
import Foundation
import RSSCore

/// The options every `rss` command takes: the shared `--database`, on `rss`'s database.
typealias GlobalOptions = DatabaseOptions<RSSDatabase>

/// `rss`'s database: `rss/rss.sqlite` in the data folder unless `--database` names another. A
/// given path's folder is created when missing.
enum RSSDatabase: OpenableDatabase {
    static let name = "rss"

    @MainActor static func open(at url: URL) async throws -> RSSDataController {
        try await RSSDataController.open(at: url)
    }

    @MainActor static func close(_ data: RSSDataController) async throws {
        try await data.close()
    }
}
