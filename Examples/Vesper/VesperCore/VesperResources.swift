import Foundation
import QSData

/// The Vesper data model and schema, bundled with VesperCore.
///
/// The canonical files are `DataModels/Vesper.plist`, `DataModels/Vesper.sql` and
/// `DataModels/VesperMigrations` at the repository root. SwiftPM bundles only files inside a
/// target's folder, so VesperCore carries copies in `Resources/`; a test fails if they differ
/// from the canonical files by one byte.
public enum VesperResources {
    /// The data model file inside the bundle.
    public static var modelURL: URL {
        get throws { try resource("Vesper", "plist") }
    }

    /// The schema SQL file inside the bundle.
    public static var schemaURL: URL {
        get throws { try resource("Vesper", "sql") }
    }

    /// The folder of numbered schema migrations that run after the schema SQL.
    public static var migrationsURL: URL {
        get throws { try resource("VesperMigrations", nil) }
    }

    /// The loaded data model.
    public static func model() throws -> QSDataModel {
        try QSDataModel(contentsOf: modelURL)
    }

    /// The loaded schema.
    public static func schema() throws -> QSSchema {
        try QSSchema(creationFile: schemaURL, migrationsFolder: migrationsURL)
    }

    private static func resource(_ name: String, _ fileExtension: String?) throws -> URL {
        guard let url = Bundle.module.url(forResource: name, withExtension: fileExtension) else {
            let file = fileExtension.map { "\(name).\($0)" } ?? name
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(file) in the VesperCore bundle"])
        }
        return url
    }
}
