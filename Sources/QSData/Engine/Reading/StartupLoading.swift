/// Lets the store open a binding's generic type to load it at startup.
protocol StartupLoadable {
    @MainActor func load(into store: QSStore) async throws
}

extension TypeBinding: StartupLoadable {
    @MainActor func load(into store: QSStore) async throws {
        _ = try await store.fetchRows(self, FetchRequest())
    }
}
