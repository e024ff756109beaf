/// Turns the plist's dictionaries into model descriptions, checking every key and value.
struct DataModelReader {
    let fileName: String

    static let objectKeys: Set = ["table", "uniqued", "immutable", "cachePermanently", "fetchAllAtStartup", "logChanges", "synced", "localProperties", "uniqueKey", "syncedBlobs", "syncGroup", "properties", "relationships", "search"]
    static let relationshipKeys: Set = ["table", "parentID", "childID", "childClass", "indexKey", "loading", "deleteRule"]
    static let searchKeys: Set = ["table", "columns"]


    func readModel(_ root: Any) throws -> [String: QSObjectDescription] {
        guard let top = root as? [String: Any] else {
            throw failure(nil, nil, "the top level must be a dictionary")
        }
        for key in top.keys where key != "objects" {
            throw failure(nil, key, "unknown key (the top level has only 'objects')")
        }
        guard let objectsValue = top["objects"] else { throw failure(nil, "objects", "missing") }
        guard let objects = objectsValue as? [String: Any] else { throw failure(nil, "objects", "must be a dictionary") }

        var types: [String: QSObjectDescription] = [:]
        for name in objects.keys.sorted() {
            guard let object = objects[name] as? [String: Any] else { throw failure(name, nil, "must be a dictionary") }
            types[name] = try readObject(name: name, object)
        }
        for type in types.values {
            for relationship in type.relationships where types[relationship.childType] == nil {
                throw failure(type.name, "relationships.\(relationship.name).childClass", "'\(relationship.childType)' is not a declared object type")
            }
        }
        return types
    }

    private func readObject(name: String, _ object: [String: Any]) throws -> QSObjectDescription {
        for key in object.keys where !Self.objectKeys.contains(key) && !QSDataModel.generatorKeys.contains(key) {
            throw failure(name, key, "unknown key")
        }
        let table = try string(object, "table", in: name)
        let propertiesValue = object["properties"] ?? [String: Any]()
        guard let propertyTypes = propertiesValue as? [String: Any] else {
            throw failure(name, "properties", "must be a dictionary")
        }
        var properties: [QSPropertyDescription] = []
        for property in propertyTypes.keys.sorted() {
            guard let typeName = propertyTypes[property] as? String else {
                throw failure(name, "properties.\(property)", "must be a string naming a type")
            }
            let isOptional = typeName.hasSuffix("?")
            guard let type = QSPropertyType(rawValue: isOptional ? String(typeName.dropLast()) : typeName) else {
                let known = QSPropertyType.allCases.map(\.rawValue).joined(separator: ", ")
                throw failure(name, "properties.\(property)", "unknown type '\(typeName)' (known: \(known); add '?' for one that may be NULL)")
            }
            properties.append(QSPropertyDescription(name: property, type: type, isOptional: isOptional))
        }
        guard let uniqueIDIndex = properties.firstIndex(where: { $0.name == "uniqueID" }) else {
            throw failure(name, "properties.uniqueID", "missing: every object type needs a uniqueID property")
        }
        let uniqueID = properties.remove(at: uniqueIDIndex)
        guard uniqueID.type == .int64 || uniqueID.type == .string, !uniqueID.isOptional else {
            throw failure(name, "properties.uniqueID", "must be int64 or string, not \(uniqueID.typeSpelling)")
        }
        properties.insert(uniqueID, at: 0)

        var description = QSObjectDescription(
            name: name,
            table: table,
            uniqued: try bool(object, "uniqued", in: name),
            immutable: try bool(object, "immutable", in: name),
            cachePermanently: try bool(object, "cachePermanently", in: name),
            fetchAllAtStartup: try bool(object, "fetchAllAtStartup", in: name),
            properties: properties,
            relationships: try readRelationships(object["relationships"], in: name, properties: properties),
            search: try readSearch(object["search"], in: name, properties: properties))
        description.isGenerated = try bool(object, "generate", in: name)
        if object["logChanges"] != nil { description.logsChanges = try bool(object, "logChanges", in: name) }
        description.synced = try bool(object, "synced", in: name)
        description.localProperties = try readLocalProperties(object["localProperties"], of: description)
        description.uniqueKey = try readUniqueKey(object["uniqueKey"], of: description)
        description.syncedBlobs = try readSyncedBlobs(object["syncedBlobs"], of: description)
        description.syncGroup = try readSyncGroup(object["syncGroup"], of: description)
        if description.synced, !description.logsChanges {
            throw failure(name, "synced", "a synced type's changes must be logged: it can't also say logChanges false")
        }
        return description
    }

    /// The string property whose value, compared as sync compares it, names one object.
    private func readUniqueKey(_ value: Any?, of description: QSObjectDescription) throws -> String? {
        guard let value else { return nil }
        guard let name = value as? String, let property = description.property(named: name), name != "uniqueID" else {
            throw failure(description.name, "uniqueKey", "must name a string property other than uniqueID")
        }
        guard property.type == .string, !property.isOptional else {
            throw failure(description.name, "uniqueKey", "'\(name)' is \(property.typeSpelling); a unique key is a string that is never NULL")
        }
        guard description.synced else {
            throw failure(description.name, "uniqueKey", "only a synced type has a unique key: add <key>synced</key><true/>")
        }
        return name
    }

    /// The `string?` property of a synced type that names the group an object is shared in.
    private func readSyncGroup(_ value: Any?, of description: QSObjectDescription) throws -> String? {
        guard let value else { return nil }
        guard let name = value as? String, let property = description.property(named: name), name != "uniqueID" else {
            throw failure(description.name, "syncGroup", "must name a string? property other than uniqueID")
        }
        guard property.type == .string, property.isOptional else {
            throw failure(description.name, "syncGroup", "'\(name)' is \(property.typeSpelling); a group is a string? (NULL: the account's own)")
        }
        guard description.synced, !description.localProperties.contains(name) else {
            throw failure(description.name, "syncGroup", "only a synced type's synced property names a group: add <key>synced</key><true/>")
        }
        return name
    }

    /// The `data?` properties of a synced type that travel as blobs, and how each arrives.
    private func readSyncedBlobs(_ value: Any?, of description: QSObjectDescription) throws -> [String: QSBlobLoading] {
        guard let value else { return [:] }
        guard let blobs = value as? [String: Any] else {
            throw failure(description.name, "syncedBlobs", "must be a dictionary of property names to eager or lazy")
        }
        var loading: [String: QSBlobLoading] = [:]
        for (name, how) in blobs {
            guard let property = description.property(named: name), property.type == .data, property.isOptional else {
                throw failure(description.name, "syncedBlobs.\(name)", "must name a data? property: a blob is NULL until its bytes arrive")
            }
            guard let text = how as? String, let mode = QSBlobLoading(rawValue: text) else {
                throw failure(description.name, "syncedBlobs.\(name)", "must be eager or lazy")
            }
            loading[property.name] = mode
        }
        guard description.synced else {
            throw failure(description.name, "syncedBlobs", "only a synced type has synced blobs: add <key>synced</key><true/>")
        }
        return loading
    }

    /// The properties and relationships a synced type keeps on this device only.
    private func readLocalProperties(_ value: Any?, of description: QSObjectDescription) throws -> Set<String> {
        guard let value else { return [] }
        guard let names = value as? [String] else {
            throw failure(description.name, "localProperties", "must be an array of property or relationship names")
        }
        for name in names {
            if name == "uniqueID" { throw failure(description.name, "localProperties", "uniqueID always syncs: it names the object") }
            guard description.property(named: name) != nil || description.relationship(named: name) != nil else {
                throw failure(description.name, "localProperties", "'\(name)' is not a property or relationship of \(description.name)")
            }
        }
        guard description.synced else {
            throw failure(description.name, "localProperties", "only a synced type has local properties: add <key>synced</key><true/>")
        }
        return Set(names)
    }

    private func readSearch(_ value: Any?, in type: String, properties: [QSPropertyDescription]) throws -> QSSearchDescription? {
        guard let value else { return nil }
        guard let search = value as? [String: Any] else { throw failure(type, "search", "must be a dictionary") }
        for unknown in search.keys where !Self.searchKeys.contains(unknown) {
            throw failure(type, "search.\(unknown)", "unknown key")
        }
        let table = try string(search, "table", in: type, prefix: "search")
        guard let columns = search["columns"] as? [String], !columns.isEmpty else {
            throw failure(type, "search.columns", "must be a non-empty array of property names")
        }
        // A column need not be a property: a light list type may search its table's full text.
        for column in columns {
            if let property = properties.first(where: { $0.name == column }), property.type != .string {
                throw failure(type, "search.columns", "'\(column)' is \(property.type.rawValue); only string properties can be searched")
            }
        }
        if Set(columns).count != columns.count {
            throw failure(type, "search.columns", "lists a property twice")
        }
        return QSSearchDescription(table: table, columns: columns)
    }

    private func readRelationships(_ value: Any?, in type: String, properties: [QSPropertyDescription]) throws -> [QSRelationshipDescription] {
        guard let value else { return [] }
        guard let relationships = value as? [String: Any] else {
            throw failure(type, "relationships", "must be a dictionary")
        }
        return try relationships.keys.sorted().map { name in
            let key = "relationships.\(name)"
            guard let relationship = relationships[name] as? [String: Any] else {
                throw failure(type, key, "must be a dictionary")
            }
            for unknown in relationship.keys where !Self.relationshipKeys.contains(unknown) {
                throw failure(type, "\(key).\(unknown)", "unknown key")
            }
            if properties.contains(where: { $0.name == name }) {
                throw failure(type, key, "a property has the same name")
            }
            var loading = QSLoading.eager
            if relationship["loading"] != nil {
                let value = try string(relationship, "loading", in: type, prefix: key)
                guard let known = QSLoading(rawValue: value) else {
                    throw failure(type, "\(key).loading", "must be 'eager' or 'lazy', not '\(value)'")
                }
                loading = known
            }
            return QSRelationshipDescription(
                name: name,
                table: try string(relationship, "table", in: type, prefix: key),
                parentIDColumn: try string(relationship, "parentID", in: type, prefix: key),
                childIDColumn: try string(relationship, "childID", in: type, prefix: key),
                indexColumn: try string(relationship, "indexKey", in: type, prefix: key),
                childType: try string(relationship, "childClass", in: type, prefix: key),
                deleteRule: try deleteRule(relationship, in: type, prefix: key),
                loading: loading)
        }
    }

    private func deleteRule(_ relationship: [String: Any], in type: String, prefix: String) throws -> QSDeleteRule {
        guard relationship["deleteRule"] != nil else { return .nullify }
        let name = try string(relationship, "deleteRule", in: type, prefix: prefix)
        guard let rule = QSDeleteRule(rawValue: name) else {
            let known = QSDeleteRule.allCases.map(\.rawValue).joined(separator: ", ")
            throw failure(type, "\(prefix).deleteRule", "unknown rule '\(name)' (known: \(known))")
        }
        return rule
    }

    private func string(_ dictionary: [String: Any], _ key: String, in type: String, prefix: String? = nil) throws -> String {
        let path = prefix.map { "\($0).\(key)" } ?? key
        guard let value = dictionary[key] else { throw failure(type, path, "missing") }
        guard let string = value as? String, !string.isEmpty else { throw failure(type, path, "must be a non-empty string") }
        return string
    }

    func bool(_ dictionary: [String: Any], _ key: String, in type: String) throws -> Bool {
        guard let value = dictionary[key] else { return false }
        guard let bool = value as? Bool else { throw failure(type, key, "must be a boolean (<true/> or <false/>)") }
        return bool
    }

    func failure(_ type: String?, _ key: String?, _ problem: String) -> QSDataError {
        .invalidModel(file: fileName, type: type, key: key, problem: problem)
    }
}
