/// Where a change came from: the app's own edits, or values merged in from sync.
///
/// Every write method takes a `source` (``app`` by default) and the resulting ``QSChange``
/// carries it, so an observer can, for example, schedule an upload only for the user's edits.
public enum QSChangeSource: String, Sendable {
    /// The app's own edits, usually the user's.
    case app
    /// Values merged in from elsewhere, such as a sync server.
    case sync
}

/// What one save, update or delete changed, type by type.
///
/// Observers use it to refresh views and to replace values they hold (see ``QSStore/changes``):
/// ```swift
/// for await change in store.changes {
///     let changed = change.updatedIDs(of: Note.self)
///     guard !changed.isEmpty else { continue }
///     let fresh = try await store.fetch(Note.self, ids: changed)
///     let freshByID = Dictionary(uniqueKeysWithValues: fresh.map { ($0.uniqueID, $0) })
///     notes = notes.map { freshByID[$0.uniqueID] ?? $0 }
/// }
/// ```
public struct QSChange: Sendable, Equatable {
    /// The uniqueIDs one type had inserted, updated and deleted.
    ///
    /// The queue records them as lists (cheap, even for 100,000 IDs); the sets are made when an
    /// observer asks for them.
    public struct IDs: Sendable, Equatable {
        var insertedList: [QSAnyID] = []
        var updatedList: [QSAnyID] = []
        var deletedList: [QSAnyID] = []

        /// The uniqueIDs of the rows inserted.
        public var inserted: Set<QSAnyID> { Set(insertedList) }
        /// The uniqueIDs of the rows updated (saved again, or changed by a bulk update).
        public var updated: Set<QSAnyID> { Set(updatedList) }
        /// The uniqueIDs of the rows deleted.
        public var deleted: Set<QSAnyID> { Set(deletedList) }

        /// Whether the type had nothing inserted, updated or deleted.
        public var isEmpty: Bool { insertedList.isEmpty && updatedList.isEmpty && deletedList.isEmpty }

        public static func == (lhs: IDs, rhs: IDs) -> Bool {
            lhs.inserted == rhs.inserted && lhs.updated == rhs.updated && lhs.deleted == rhs.deleted
        }
    }

    /// Who wrote a change: this store through its object API, the app's own SQL through this
    /// store, or another connection to the file (another process, a widget, a `sqlite3` session).
    public enum Origin: Sendable, Equatable {
        /// A save, update or delete made through this store.
        case thisStore
        /// SQL the app ran through this store (``QSStore/write(_:_:)``, ``QSStore/execute(_:_:)``…).
        case appSQL
        /// Another connection to the database file.
        case otherConnection

        var operationName: String {
            switch self {
            case .thisStore: "write"
            case .appSQL: "the app's SQL"
            case .otherConnection: "another connection's changes"
            }
        }
    }

    /// Whether the app or sync made the change.
    public let source: QSChangeSource
    /// Who wrote the change.
    public internal(set) var origin: Origin = .thisStore
    /// True when rows may have changed that the change does not list: the store was away from
    /// the change log longer than it keeps entries, so every type it lists (possibly with no
    /// IDs) must be taken as changed throughout. The store has re-read every instance it holds.
    public internal(set) var mayOmitRows = false
    /// The changed IDs by model type name.
    public internal(set) var changesByType: [String: IDs]
    /// When the change is one bulk update: the table and the columns it set. Lets a live query
    /// tell whether its results can be patched instead of fetched again.
    var bulkUpdate: (table: String, columns: Set<String>)?

    init(source: QSChangeSource, changesByType: [String: IDs] = [:]) {
        self.source = source
        self.changesByType = changesByType
    }

    /// The model names of the types that changed.
    public var typeNames: Set<String> { Set(changesByType.keys) }

    /// Whether nothing was inserted, updated or deleted.
    public var isEmpty: Bool { !mayOmitRows && changesByType.values.allSatisfy(\.isEmpty) }

    /// Same source, origin and IDs; how a bulk update was made is not compared.
    public static func == (lhs: QSChange, rhs: QSChange) -> Bool {
        lhs.source == rhs.source && lhs.origin == rhs.origin && lhs.mayOmitRows == rhs.mayOmitRows
            && lhs.changesByType == rhs.changesByType
    }

    /// The uniqueIDs of the `type` objects inserted. Every type on the same table as `type`
    /// reports the same IDs.
    public func insertedIDs<T: QSDataObject>(of type: T.Type) -> Set<T.UniqueID> { ids(of: type, \.insertedList) }
    /// The uniqueIDs of the `type` objects updated.
    public func updatedIDs<T: QSDataObject>(of type: T.Type) -> Set<T.UniqueID> { ids(of: type, \.updatedList) }
    /// The uniqueIDs of the `type` objects deleted.
    public func deletedIDs<T: QSDataObject>(of type: T.Type) -> Set<T.UniqueID> { ids(of: type, \.deletedList) }

    private func ids<T: QSDataObject>(of type: T.Type, _ kind: KeyPath<IDs, [QSAnyID]>) -> Set<T.UniqueID> {
        Set((changesByType[T.modelName]?[keyPath: kind] ?? []).compactMap { T.UniqueID(anyID: $0) })
    }

    mutating func record(_ kind: WritableKeyPath<IDs, [QSAnyID]>, _ ids: some Collection<QSAnyID>, of typeName: String) {
        guard !ids.isEmpty else { return }
        guard !changesByType.isEmpty else {
            // The first type a write records, as most writes record one: the table is made for
            // one entry, the name hashed once, and an array of IDs taken as it is.
            var first = IDs()
            first[keyPath: kind] = Array(ids)
            changesByType = [typeName: first]
            return
        }
        changesByType[typeName, default: IDs()][keyPath: kind].append(contentsOf: ids)
    }
}
