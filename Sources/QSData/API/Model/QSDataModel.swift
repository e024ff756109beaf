import Foundation

/// The app's data model: every object type with its table, properties and relationships.
///
/// Load it from a property list in the format of Vesper's `DataModel2.plist`:
/// ```swift
/// let model = try QSDataModel(contentsOf: Bundle.module.url(forResource: "Notes", withExtension: "plist")!)
/// ```
/// Anything wrong in the file — an unknown key, a value of the wrong type, a relationship to an
/// undeclared type, a type without `uniqueID` — throws ``QSDataError/invalidModel(file:type:key:problem:)``
/// naming the file, the type and the key.
public struct QSDataModel: Sendable, Equatable {
    /// The object types by model name.
    public let objectTypes: [String: QSObjectDescription]

    /// Loads the model from a property list file.
    ///
    /// - Throws: ``QSDataError/unreadableFile(path:reason:)`` when the file can't be read,
    ///   ``QSDataError/invalidModel(file:type:key:problem:)`` when its content is wrong.
    public init(contentsOf url: URL) throws {
        try self.init(propertyList: try FileContents.data(at: url), fileName: url.lastPathComponent)
    }

    /// Loads the model from property list data; `fileName` is used in error messages.
    public init(propertyList data: Data, fileName: String = "data model") throws {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw QSDataError.invalidModel(file: fileName, type: nil, key: nil, problem: "not a property list")
        }
        let reader = DataModelReader(fileName: fileName)
        self.objectTypes = try reader.readModel(root)
    }

    /// Builds a model in code.
    public init(objectTypes: [QSObjectDescription]) {
        self.objectTypes = Dictionary(objectTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The description of the type named `name`.
    public subscript(name: String) -> QSObjectDescription? { objectTypes[name] }

    /// The per-type keys the model code generator reads, and checks itself at build time; the
    /// store reads only `generate`, to know that a type's declaration is generated.
    package static let generatorKeys: Set = [
        "generate", "swiftName", "kind", "swiftNames", "swiftTypes", "conformances", "setterAccess", "propertyOrder",
    ]
}
