/// Reads the per-type keys that tell the model code generator how to write a type's Swift
/// declaration, so that a mistake in them is reported by the loader like any other.
extension DataModelReader {
    func readGeneration(_ object: [String: Any], of type: QSObjectDescription) throws -> GeneratedTypeOptions? {
        guard try bool(object, "generate", in: type.name) else {
            if let key = GeneratedTypeOptions.keys.sorted().first(where: { $0 != "generate" && object[$0] != nil }) {
                throw failure(type.name, key, "applies only to a type whose 'generate' is <true/>")
            }
            return nil
        }
        if let problem = SwiftIdentifier.problem(with: type.name) {
            throw failure(type.name, "generate", "the type's name '\(type.name)' \(problem)")
        }
        let swiftNames = try stringDictionary(object, "swiftNames", in: type.name)
        let swiftTypes = try stringDictionary(object, "swiftTypes", in: type.name)
        try checkSwiftNames(swiftNames, of: type)
        try checkSwiftTypes(swiftTypes, of: type)
        return GeneratedTypeOptions(
            kind: try choice(object, "kind", in: type.name, default: type.uniqued ? .class : .struct),
            swiftNames: swiftNames,
            swiftTypes: swiftTypes,
            conformances: try stringArray(object, "conformances", in: type.name),
            setterAccess: try choice(object, "setterAccess", in: type.name, default: .public))
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

    /// Swift types name properties, carry no `?`, and every structured property has one.
    private func checkSwiftTypes(_ swiftTypes: [String: String], of type: QSObjectDescription) throws {
        for (name, swiftType) in swiftTypes.sorted(by: { $0.key < $1.key }) {
            guard type.property(named: name) != nil else {
                throw failure(type.name, "swiftTypes.\(name)", "the type has no property of that name")
            }
            if swiftType.hasSuffix("?") {
                throw failure(type.name, "swiftTypes.\(name)", "write the Swift type without '?': the property's type in the model ('string?') says whether it may be NULL")
            }
        }
        for property in type.properties where [.plist, .json].contains(property.type) && swiftTypes[property.name] == nil {
            throw failure(type.name, "swiftTypes.\(property.name)",
                          "missing: a \(property.type.rawValue) property of a generated type needs its Swift type (for example [String], or a Codable struct)")
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

    private func stringArray(_ object: [String: Any], _ key: String, in type: String) throws -> [String] {
        guard let value = object[key] else { return [] }
        guard let array = value as? [Any] else { throw failure(type, key, "must be an array of protocol names") }
        return try array.map { entry in
            guard let string = entry as? String, SwiftIdentifier.problem(with: string) == nil else {
                throw failure(type, key, "every entry must be a protocol name, such as Equatable")
            }
            return string
        }
    }
}
