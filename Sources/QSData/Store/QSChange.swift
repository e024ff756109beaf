/// Where a change came from: the app's own edits, or values merged in from sync.
public enum QSChangeSource: String, Sendable {
    case app
    case sync
}

/// What one save, update or delete changed, type by type.
///
/// Observers use it to refresh views and to replace values they hold (see ``QSStore/changes``):
/// ```swift
/// for await change in store.changes {
///     let changed = change.updatedIDs(of: Note.self)
///     notes = notes.map { changed.contains($0.uniqueID) ? (try? await store.fetch(Note.self, id: $0.uniqueID)) ?? $0 : $0 }
/// }
/// ```
public struct QSChange: Sendable, Equatable {
    /// The uniqueIDs one type had inserted, updated and deleted.
    public struct IDs: Sendable, Equatable {
        public var inserted: Set<QSAnyID> = []
        public var updated: Set<QSAnyID> = []
        public var deleted: Set<QSAnyID> = []

        public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
    }

    public let source: QSChangeSource
    /// The changed IDs by model type name.
    public internal(set) var changesByType: [String: IDs]

    init(source: QSChangeSource, changesByType: [String: IDs] = [:]) {
        self.source = source
        self.changesByType = changesByType
    }

    /// The model names of the types that changed.
    public var typeNames: Set<String> { Set(changesByType.keys) }

    public var isEmpty: Bool { changesByType.values.allSatisfy(\.isEmpty) }

    public func insertedIDs<T: QSDataObject>(of type: T.Type) -> Set<T.UniqueID> { ids(of: type, \.inserted) }
    public func updatedIDs<T: QSDataObject>(of type: T.Type) -> Set<T.UniqueID> { ids(of: type, \.updated) }
    public func deletedIDs<T: QSDataObject>(of type: T.Type) -> Set<T.UniqueID> { ids(of: type, \.deleted) }

    private func ids<T: QSDataObject>(of type: T.Type, _ kind: KeyPath<IDs, Set<QSAnyID>>) -> Set<T.UniqueID> {
        Set((changesByType[T.modelName]?[keyPath: kind] ?? []).compactMap { T.UniqueID(anyID: $0) })
    }

    mutating func record(_ kind: WritableKeyPath<IDs, Set<QSAnyID>>, _ ids: some Sequence<QSAnyID>, of typeName: String) {
        changesByType[typeName, default: IDs()][keyPath: kind].formUnion(ids)
    }

    mutating func merge(_ other: QSChange) {
        for (type, ids) in other.changesByType {
            record(\.inserted, ids.inserted, of: type)
            record(\.updated, ids.updated, of: type)
            record(\.deleted, ids.deleted, of: type)
        }
    }
}
