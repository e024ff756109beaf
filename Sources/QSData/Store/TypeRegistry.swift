/// Every registered type, by model name and by Swift type. Immutable once the store is open.
final class TypeRegistry: Sendable {
    private let bindingsByName: [String: any AnyTypeBinding]
    private let bindingsByType: [ObjectIdentifier: any AnyTypeBinding]
    private let siblingsByName: [String: [any AnyTypeBinding]]

    init(bindings: [(type: Any.Type, binding: any AnyTypeBinding)]) {
        let byName = Dictionary(bindings.map { ($0.binding.description.name, $0.binding) }, uniquingKeysWith: { first, _ in first })
        bindingsByName = byName
        bindingsByType = Dictionary(bindings.map { (ObjectIdentifier($0.type), $0.binding) }, uniquingKeysWith: { first, _ in first })
        siblingsByName = byName.mapValues { binding in
            byName.values.filter { $0 !== binding && $0.description.table == binding.description.table }
                .sorted { $0.description.name < $1.description.name }
        }
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

    var all: [any AnyTypeBinding] {
        bindingsByName.values.sorted { $0.description.name < $1.description.name }
    }
}
