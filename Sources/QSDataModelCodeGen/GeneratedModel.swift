import Foundation
import QSData

/// A data model as the code generator reads it: the model the store loads, with the options of
/// each type whose declaration is generated (see ``GeneratedTypeOptions``).
package struct GeneratedModel {
    package let model: QSDataModel
    /// The options of the generated types, by model name.
    package let options: [String: GeneratedTypeOptions]

    /// Loads the model file as the store does, then reads and checks its generation keys.
    /// - Throws: ``QSDataError/invalidModel(file:type:key:problem:)`` naming the file, the type
    ///   and the key, as the store's loader does.
    package init(contentsOf url: URL) throws {
        let model = try QSDataModel(contentsOf: url)
        // The store's loader has read the same file as a property list already.
        try self.init(model: model, propertyList: Data(contentsOf: url), fileName: url.lastPathComponent)
    }

    /// Reads a model from a property list's bytes (XML or binary), as ``init(contentsOf:)`` does.
    package init(propertyList data: Data, fileName: String) throws {
        try self.init(model: QSDataModel(propertyList: data, fileName: fileName), propertyList: data, fileName: fileName)
    }

    private init(model: QSDataModel, propertyList data: Data, fileName: String) throws {
        let root = try PropertyListSerialization.propertyList(from: data, format: nil)
        let reader = GenerationOptionsReader(fileName: fileName)
        let objects = (root as? [String: Any])?["objects"] as? [String: Any] ?? [:]
        var options: [String: GeneratedTypeOptions] = [:]
        for name in model.objectTypes.keys.sorted() {
            guard let description = model.objectTypes[name], let object = objects[name] as? [String: Any] else { continue }
            options[name] = try reader.read(object, of: description)
        }
        self.model = model
        self.options = options
        try reader.checkSwiftTypeNames(self)
        try reader.checkRelationshipSwiftTypes(self)
    }

    /// The name of a type's Swift declaration: a generated type's `swiftName`, otherwise the
    /// model's name (which a hand-written type repeats, or returns from `modelName`).
    package func swiftTypeName(of modelName: String) -> String {
        options[modelName]?.swiftName ?? modelName
    }
}
