import Foundation
import QSData

/// The data model and schema the app ships, bundled with RSSCore so that the app finds them
/// from any working directory. Canonical copies live in the package's `DataModels/` folder.
public enum RSSResources {
    /// The bundled `RSS.plist`.
    public static var modelURL: URL {
        get throws(RSSError) { try resource("RSS", "plist") }
    }

    /// The bundled `RSS.sql`.
    public static var schemaURL: URL {
        get throws(RSSError) { try resource("RSS", "sql") }
    }

    /// The bundled folder of numbered schema migrations, `RSSMigrations`.
    public static var migrationsURL: URL {
        get throws(RSSError) {
            guard let url = Bundle.module.url(forResource: "RSSMigrations", withExtension: nil) else {
                throw .missingResource("RSSMigrations")
            }
            return url
        }
    }

    /// Every model type the store registers.
    public static let types: [any QSDataObject.Type] = [
        Feed.self, FeedAddress.self, HostPause.self, ArticleSummary.self, Article.self, ArticleContent.self, Author.self,
    ]

    private static func resource(_ name: String, _ fileExtension: String) throws(RSSError) -> URL {
        guard let url = Bundle.module.url(forResource: name, withExtension: fileExtension) else {
            throw .missingResource("\(name).\(fileExtension)")
        }
        return url
    }
}
