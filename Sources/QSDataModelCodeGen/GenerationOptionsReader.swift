import QSData

/// Reads the per-type keys that tell the model code generator how to write a type's Swift
/// declaration, and reports a mistake in them as the model loader reports any other: naming the
/// file, the type and the key.
struct GenerationOptionsReader {
    let fileName: String

    /// The options of `type`, read from its dictionary in the model file; nil when the type is
    /// not generated.
    func read(_ object: [String: Any], of type: QSObjectDescription) throws -> GeneratedTypeOptions? {
        guard type.isGenerated else {
            if let key = QSDataModel.generatorKeys.sorted().first(where: { $0 != "generate" && object[$0] != nil }) {
                throw failure(type.name, key, "applies only to a type whose 'generate' is <true/>")
            }
            return nil
        }
        let swiftName = try optionalString(object, "swiftName", in: type.name)
        if let problem = SwiftIdentifier.problem(with: swiftName ?? type.name) {
            let advice = swiftName == nil ? ": give the Swift type another name with 'swiftName'" : ""
            throw failure(type.name, swiftName == nil ? "generate" : "swiftName", "the Swift type's name '\(swiftName ?? type.name)' \(problem)\(advice)")
        }
        let kind = try choice(object, "kind", in: type.name, default: type.uniqued ? GeneratedTypeOptions.Kind.class : .struct)
        if kind == .struct && type.uniqued {
            throw failure(type.name, "kind", "a uniqued type must be a class: a struct is copied, so no one instance can be shared (write 'class', or leave 'kind' out)")
        }
        let swiftNames = try stringDictionary(object, "swiftNames", in: type.name)
        let swiftTypes = try stringDictionary(object, "swiftTypes", in: type.name)
        try checkSwiftNames(swiftNames, of: type)
        try checkSwiftTypes(swiftTypes, of: type)
        let propertyOrder = try stringArray(
            object, "propertyOrder", in: type.name, of: "property and relationship names", entry: "a property or relationship name")
        try checkPropertyOrder(propertyOrder, of: type)
        return GeneratedTypeOptions(
            swiftName: swiftName,
            kind: kind,
            swiftNames: swiftNames,
            swiftTypes: swiftTypes,
            conformances: try stringArray(
                object, "conformances", in: type.name, of: "protocol names", entry: "a protocol name, such as Equatable"),
            setterAccess: try choice(object, "setterAccess", in: type.name, default: .public),
            propertyOrder: propertyOrder)
    }

    /// No two types of the model are declared under one Swift name.
    func checkSwiftTypeNames(_ model: GeneratedModel) throws {
        var modelNameBySwiftName: [String: String] = [:]
        for type in model.model.objectTypes.values.sorted(by: { $0.name < $1.name }) {
            let swiftName = model.swiftTypeName(of: type.name)
            if let other = modelNameBySwiftName[swiftName] {
                let key = model.options[type.name]?.swiftName == nil ? "generate" : "swiftName"
                throw failure(type.name, key, "the Swift type name '\(swiftName)' is already the name of '\(other)'")
            }
            modelNameBySwiftName[swiftName] = type.name
        }
    }

    /// An order names every property and relationship once.
    private func checkPropertyOrder(_ order: [String], of type: QSObjectDescription) throws {
        guard !order.isEmpty else { return }
        let members = type.properties.map(\.name) + type.relationships.map(\.name)
        if let unknown = order.first(where: { !members.contains($0) }) {
            throw failure(type.name, "propertyOrder", "'\(unknown)' is not a property or relationship of the type")
        }
        if let repeated = order.first(where: { name in order.filter { $0 == name }.count > 1 }) {
            throw failure(type.name, "propertyOrder", "lists '\(repeated)' twice")
        }
        let missing = members.filter { !order.contains($0) }
        if !missing.isEmpty {
            throw failure(type.name, "propertyOrder", "must list every property and relationship; missing: \(missing.joined(separator: ", "))")
        }
    }

    /// Every property and relationship gets a distinct Swift name that is an identifier.
    private func checkSwiftNames(_ swiftNames: [String: String], of type: QSObjectDescription) throws {
        for modelName in swiftNames.keys.sorted() {
            guard type.property(named: modelName) != nil || type.relationship(named: modelName) != nil else {
                throw failure(type.name, "swiftNames.\(modelName)", "the type has no property or relationship of that name")
            }
            if modelName == "uniqueID" {
                throw failure(type.name, "swiftNames.uniqueID", "uniqueID keeps its name: QSDataObject requires it")
            }
        }
        var modelNameBySwiftName: [String: String] = [:]
        let members = type.properties.map { ($0.name, "properties.\($0.name)") }
            + type.relationships.map { ($0.name, "relationships.\($0.name)") }
        for (modelName, memberKey) in members {
            let swiftName = swiftNames[modelName] ?? modelName
            let key = swiftNames[modelName] == nil ? memberKey : "swiftNames.\(modelName)"
            if let problem = SwiftIdentifier.problem(with: swiftName) {
                throw failure(type.name, key, "'\(swiftName)' \(problem): give it another name in 'swiftNames'")
            }
            if let other = modelNameBySwiftName[swiftName] {
                throw failure(type.name, key, "the Swift name '\(swiftName)' is already the name of '\(other)'")
            }
            modelNameBySwiftName[swiftName] = modelName
        }
    }

    private func choice<Choice: RawRepresentable & CaseIterable>(
        _ object: [String: Any], _ key: String, in type: String, default defaultChoice: Choice
    ) throws -> Choice where Choice.RawValue == String {
        guard let value = object[key] else { return defaultChoice }
        guard let text = value as? String, let choice = Choice(rawValue: text) else {
            throw failure(type, key, "must be one of: \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return choice
    }

    private func stringDictionary(_ object: [String: Any], _ key: String, in type: String) throws -> [String: String] {
        guard let value = object[key] else { return [:] }
        guard let dictionary = value as? [String: Any] else { throw failure(type, key, "must be a dictionary") }
        return try dictionary.mapValues { entry in
            guard let string = entry as? String, !string.isEmpty else {
                throw failure(type, key, "every value must be a non-empty string")
            }
            return string
        }
    }

    /// An array of identifiers; `entries` and `entry` say what they name, for the messages.
    private func stringArray(_ object: [String: Any], _ key: String, in type: String, of entries: String, entry: String) throws -> [String] {
        guard let value = object[key] else { return [] }
        guard let array = value as? [Any] else { throw failure(type, key, "must be an array of \(entries)") }
        return try array.map { element in
            guard let string = element as? String, SwiftIdentifier.problem(with: string) == nil else {
                throw failure(type, key, "every entry must be \(entry)")
            }
            return string
        }
    }

    private func optionalString(_ object: [String: Any], _ key: String, in type: String) throws -> String? {
        guard let value = object[key] else { return nil }
        guard let string = value as? String, !string.isEmpty else { throw failure(type, key, "must be a non-empty string") }
        return string
    }

    func failure(_ type: String?, _ key: String?, _ problem: String) -> QSDataError {
        .invalidModel(file: fileName, type: type, key: key, problem: problem)
    }
}
