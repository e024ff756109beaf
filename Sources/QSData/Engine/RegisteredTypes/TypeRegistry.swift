/// Every registered type, by model name and by Swift type. Immutable once the store is open.
final class TypeRegistry: Sendable {
    private let bindingsByName: [String: any AnyTypeBinding]
    private let bindingsByType: [ObjectIdentifier: any AnyTypeBinding]
    private let siblingsByName: [String: [any AnyTypeBinding]]
    /// What deleting rows of each table of the model involves, by table name.
    let deletePlans: [String: DeletePlan]
    /// Per table, the registered types with a relationship whose children live on it.
    /// The registered types that keep instances.
    private let cachingBindings: [any AnyTypeBinding]
    /// Whether any type whose instances are kept records which properties it set (see
    /// ``QSChangeTrackingObject``).
    let hasTypesMarkingChanges: Bool
    private let parentsByChildTable: [String: [(binding: any AnyTypeBinding, relationship: String)]]
    /// The tables of the types that keep no instances and are the child of some relationship:
    /// the queue knows which of their rows exist (see ``KnownValueRows``).
    let valueChildTables: Set<String>
    /// The names of the types whose relationships lead, directly or through other types, back to
    /// rows of their own type (a step listing steps).
    private let selfReachingNames: Set<String>
    /// How many reads of other writers' changes the main actor has merged, for the saves it encodes.
    let outsideReadsMerged = OutsideReadsMerged()

    /// - Parameter model: every type of the data model, registered or not: a delete cleans the
    ///   lookup tables of all of them.
    init(bindings: [(type: Any.Type, binding: any AnyTypeBinding)], model: [QSObjectDescription]) {
        let byName = Dictionary(bindings.map { ($0.binding.description.name, $0.binding) }, uniquingKeysWith: { first, _ in first })
        bindingsByName = byName
        bindingsByType = Dictionary(bindings.map { (ObjectIdentifier($0.type), $0.binding) }, uniquingKeysWith: { first, _ in first })
        siblingsByName = byName.mapValues { binding in
            byName.values.filter { $0 !== binding && $0.description.table == binding.description.table }
                .sorted { $0.description.name < $1.description.name }
        }
        deletePlans = DeletePlan.plans(model: model, registeredTypeNames: Set(byName.keys))
        let tableOfType = Dictionary(model.map { ($0.name, $0.table) }, uniquingKeysWith: { first, _ in first })
        var parents: [String: [(binding: any AnyTypeBinding, relationship: String)]] = [:]
        for binding in byName.values.sorted(by: { $0.description.name < $1.description.name }) {
            for relationship in binding.description.relationships {
                guard let childTable = tableOfType[relationship.childType] else { continue }
                parents[childTable, default: []].append((binding, relationship.name))
            }
        }
        parentsByChildTable = parents
        let childTypeNames = Set(byName.values.flatMap { $0.description.relationships.map(\.childType) })
        valueChildTables = Set(byName.values.filter { !$0.cachesInstances && childTypeNames.contains($0.description.name) }.map(\.description.table))
        cachingBindings = byName.values.filter(\.cachesInstances).sorted { $0.description.name < $1.description.name }
        hasTypesMarkingChanges = cachingBindings.contains { $0.tracksChanges }
        selfReachingNames = Self.selfReachingNames(model)
    }

    /// The types of `model` from which some chain of relationships leads back to the type itself.
    private static func selfReachingNames(_ model: [QSObjectDescription]) -> Set<String> {
        let childTypes = Dictionary(model.map { ($0.name, $0.relationships.map(\.childType)) }, uniquingKeysWith: { first, _ in first })
        return Set(childTypes.keys.filter { start in
            var seen: Set<String> = []
            var waiting = childTypes[start] ?? []
            while let type = waiting.popLast() {
                if type == start { return true }
                if seen.insert(type).inserted { waiting += childTypes[type] ?? [] }
            }
            return false
        })
    }

    /// Whether `binding`'s relationships lead, directly or through other types, back to rows of
    /// its own type.
    func reachesItself(_ binding: any AnyTypeBinding) -> Bool {
        selfReachingNames.contains(binding.description.name)
    }

    /// The registered types that read `table`.
    func bindings(onTable table: String) -> [any AnyTypeBinding] {
        (deletePlans[table]?.typeNames ?? []).compactMap { bindingsByName[$0] }
    }

    /// The registered types, with the relationship, whose children live on `table`.
    func parents(ofChildrenOn table: String) -> [(binding: any AnyTypeBinding, relationship: String)] {
        parentsByChildTable[table] ?? []
    }

    func binding(named name: String) -> (any AnyTypeBinding)? {
        bindingsByName[name]
    }

    func binding<Object: QSDataObject>(for type: Object.Type) throws -> TypeBinding<Object> {
        guard let binding = bindingsByType[ObjectIdentifier(type)] as? TypeBinding<Object> else {
            throw QSDataError.unregisteredType(Object.modelName)
        }
        return binding
    }

    /// The other registered types that read the same table as `binding`.
    func siblings(of binding: any AnyTypeBinding) -> [any AnyTypeBinding] {
        siblingsByName[binding.description.name] ?? []
    }

    /// Database queue: makes the queue's tables follow what the main actor noted in its own
    /// (see ``takeKnownRowsNotes()``).
    func apply(_ notes: [(String, KnownRowsNotes)], to state: QueueState) {
        for (name, typeNotes) in notes {
            guard let binding = binding(named: name) else { continue }
            typeNotes.apply(to: state.knownRows(of: binding))
        }
    }

    /// What the main actor's instance tables noted for the queue's, by type name; nil when
    /// nothing (see ``ObjectCache``).
    @MainActor
    func takeKnownRowsNotes() -> [(String, KnownRowsNotes)]? {
        var taken: [(String, KnownRowsNotes)] = []
        for binding in cachingBindings {
            if let notes = binding.takeKnownRowsNotes() { taken.append((binding.description.name, notes)) }
        }
        return taken.isEmpty ? nil : taken
    }

    /// The save `stamp` committed: the marks it took are written (see
    /// ``ObjectCache/forgetMarkedInFlight(upTo:)``).
    @MainActor func forgetMarkedInFlight(upTo stamp: UInt64) {
        for binding in cachingBindings where binding.tracksChanges { binding.forgetMarkedInFlight(upTo: stamp) }
    }

    /// Every write has settled: the caches forget which columns bulk updates by uniqueIDs set,
    /// which saves gave their instances their values, and which marks saves took.
    @MainActor
    func forgetWriteTimings() {
        for binding in cachingBindings { binding.forgetWriteTimings() }
    }

    var all: [any AnyTypeBinding] {
        bindingsByName.values.sorted { $0.description.name < $1.description.name }
    }
}
