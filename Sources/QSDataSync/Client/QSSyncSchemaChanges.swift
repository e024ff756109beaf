/// How the synced properties of the app's model changed since the version that last synced the
/// file, for ``QSSync/attach(to:transport:clock:newReplicaID:schemaChanges:)``.
///
/// Sync keeps the names of the synced properties and relationships in the file. A name that
/// was synced before and is missing from the model now is refused (with
/// ``QSSyncError/syncedPropertyRemoved(table:property:)``) unless it is named here: a device
/// on the older version still sends it, and what it sends must go somewhere on purpose.
///
/// ```swift
/// let changes = QSSyncSchemaChanges(renamed: ["notes": ["body": "text"]], removed: ["notes": ["color"]])
/// let sync = try await QSSync.attach(to: store, transport: transport, schemaChanges: changes)
/// ```
public struct QSSyncSchemaChanges: Sendable, Equatable {
    /// By table, each renamed property or relationship's new name and the old name it had.
    /// What older devices send under the old name is taken as the new one.
    public var renamed: [String: [String: String]]
    /// By table, properties and relationships that no longer sync: what older devices send
    /// for them is kept aside, unused. `"*"` names a whole table that no longer syncs.
    public var removed: [String: Set<String>]

    public init(renamed: [String: [String: String]] = [:], removed: [String: Set<String>] = [:]) {
        self.renamed = renamed
        self.removed = removed
    }
}
