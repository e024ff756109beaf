/// What the data model says about one object type.
public struct QSObjectDescription: Sendable, Equatable {
    /// The type's name in the model, which is its Swift type name unless the type says otherwise.
    public let name: String
    /// The table its rows live in. Several types may share one table.
    public let table: String
    /// At most one live instance per uniqueID (for classes; values are always fresh).
    public let uniqued: Bool
    /// The app promises never to change an instance after creation, so saving one that is
    /// already stored writes nothing (one `INSERT … DO NOTHING`, no update).
    public let immutable: Bool
    /// Instances are kept in memory for the life of the store.
    public let cachePermanently: Bool
    /// Every row is fetched and cached when the store opens.
    public let fetchAllAtStartup: Bool
    /// The properties: `uniqueID` first, then the others by name.
    public let properties: [QSPropertyDescription]
    /// The ordered to-many relationships, by name.
    public let relationships: [QSRelationshipDescription]
    /// The full-text search index, when the model declares one (see ``QSSearchDescription``).
    public internal(set) var search: QSSearchDescription? = nil
    /// Whether the model code generator writes this type's Swift declaration (the model's
    /// `generate` key). The store reads it only to check a generated type's columns.
    package internal(set) var isGenerated = false
    /// Whether the store's change log records changes to this type's table (the model's
    /// `logChanges` key; true when absent). A table is logged unless every type stored in it
    /// says `false`; changes to an unlogged table made outside the store's object API (another
    /// process, the app's SQL) are not seen until the instances are fetched afresh.
    public internal(set) var logsChanges = true
    /// Whether the type's objects sync to the app's other devices (the model's `synced` key;
    /// false when absent). QSDataSync sends and receives the properties and relationships of
    /// every synced type, except ``localProperties``.
    public internal(set) var synced = false
    /// The properties and relationships of a synced type that stay on this device (the model's
    /// `localProperties` key): a feed's HTTP cache headers, say.
    public internal(set) var localProperties: Set<String> = []
    /// The string property of a synced type that names one object (the model's `uniqueKey` key):
    /// two objects whose values are the same, ignoring case and runs of whitespace, are one
    /// object. Sync merges two such objects made on different devices into the one created
    /// first, and lists that named the other name it instead (a tag called "Paris" made on two
    /// devices offline, say).
    public internal(set) var uniqueKey: String?
    /// The `data?` properties of a synced type that travel as blobs (the model's `syncedBlobs`
    /// key): named by the SHA-256 of their bytes, uploaded once however many objects hold the
    /// same bytes, and downloaded as each says.
    public internal(set) var syncedBlobs: [String: QSBlobLoading] = [:]
    /// The `string?` property of a synced type that names the group an object is shared in
    /// (the model's `syncGroup` key): an object whose value is a group's ID syncs with every
    /// member's devices, one whose value is NULL with the account's own. An object stays in the
    /// group it was made in.
    public internal(set) var syncGroup: String?

    /// The property named `name`, if the model declares one.
    public func property(named name: String) -> QSPropertyDescription? {
        properties.first { $0.name == name }
    }

    /// The relationship named `name`, if the model declares one.
    public func relationship(named name: String) -> QSRelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// Whether one instance is shared by everyone who fetches it (uniqued or cached), so that a
    /// class must be patched in place when its row changes.
    package var sharesInstances: Bool { uniqued || cachePermanently }

    /// The type of `uniqueID` (`int64` or `string`).
    public var uniqueIDType: QSPropertyType { properties[0].type }
}

/// One column-backed property of an object type.
public struct QSPropertyDescription: Sendable, Equatable {
    /// The property's name, which is also its column's name.
    public let name: String
    public let type: QSPropertyType
    /// The model declares that the column may hold NULL, by writing the type with a `?`
    /// (`string?`). A Swift type must then read it as an optional.
    public let isOptional: Bool

    /// A property named `name` of the model type `type`, optional when the model writes `type?`.
    public init(name: String, type: QSPropertyType, isOptional: Bool = false) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
    }

    /// The type as the model spells it: `string`, or `string?` for an optional property.
    public var typeSpelling: String { type.rawValue + (isOptional ? "?" : "") }
}

/// An ordered to-many relationship, stored in a lookup table of (parentID, childID, index) rows.
public struct QSRelationshipDescription: Sendable, Equatable {
    public let name: String
    /// The lookup table.
    public let table: String
    /// The lookup table's column holding the parent's uniqueID.
    public let parentIDColumn: String
    /// The lookup table's column holding the child's uniqueID.
    public let childIDColumn: String
    /// The lookup table's integer column that orders a parent's children (ascending). The store
    /// leaves gaps between the values it writes, so that inserting or moving a child rewrites one row.
    public let indexColumn: String
    /// The model name of the child type.
    public let childType: String
    /// How a fetch loads the children unless it says otherwise: all of them, or their IDs only
    /// (the plist key `loading`, `eager` by default).
    public var loading: QSLoading = .eager
    /// What deleting a parent does to its children in this relationship (the plist's
    /// `deleteRule`; `nullify` when absent).
    public let deleteRule: QSDeleteRule

    public init(
        name: String, table: String, parentIDColumn: String, childIDColumn: String, indexColumn: String,
        childType: String, deleteRule: QSDeleteRule = .nullify, loading: QSLoading = .eager
    ) {
        self.name = name
        self.table = table
        self.parentIDColumn = parentIDColumn
        self.childIDColumn = childIDColumn
        self.indexColumn = indexColumn
        self.childType = childType
        self.deleteRule = deleteRule
        self.loading = loading
    }
}

/// What deleting a parent does to the children of one of its relationships.
///
/// Whatever the rule, the parent's lookup rows go with it, and a deleted child disappears from
/// every parent that listed it.
public enum QSDeleteRule: String, Sendable, CaseIterable {
    /// The children stay; only the parent's lookup rows are deleted. The default.
    case nullify
    /// The children go too, unless another surviving parent still lists them in the same
    /// relationship; their own relationships' rules then apply in turn.
    case cascade
    /// Deleting a parent that still lists children here fails with
    /// ``QSDataError/deleteDenied(type:relationship:)`` and deletes nothing, unless the same
    /// delete deletes those children too (they were asked for with it, or a cascade takes
    /// them): deleting an account that cascades to its tags and to its notes succeeds, though
    /// each tag's notes are under `deny`.
    case deny
}

/// When a synced blob's bytes are downloaded to a device.
public enum QSBlobLoading: String, Sendable, CaseIterable {
    /// With the pull that brings the object.
    case eager
    /// When the app asks for them (`QSSync.loadBlob`); until then the property is NULL.
    case lazy
}

/// How a fetch loads a relationship.
///
/// - `eager`: the children themselves, in a constant number of statements for any number of
///   parents. Read the relationship as `[Child]` or as ``QSRelated``.
/// - `lazy`: only the children's uniqueIDs, in one statement per relationship; fetch the children
///   when they are wanted with ``QSStore/fetchChildren(_:)``. Read the relationship as ``QSRelated``.
public enum QSLoading: String, Sendable, CaseIterable {
    case eager
    case lazy
}
