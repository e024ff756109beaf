/// Keeps one query's results current: the work behind ``QSLiveQuery`` and ``QSLiveResults``.
///
/// It listens to every committed change and ignores those that can't affect the results (no
/// SQL at all). For a relevant one it schedules one re-fetch on the next main-actor turn, so a
/// burst of changes delivered together costs one fetch. Each fetch learns on the queue the number
/// of the last commit it reflects; changes delivered later with a number up to that one are
/// already in the results and cost nothing.
@MainActor
final class LiveQueryEngine<Object: QSDataObject>: CommitListener {
    enum Event {
        case results
        case failure(any Error)
        case finished
    }

    /// How a change bears on the current results.
    private enum Effect {
        case none
        case alreadyApplied
        case needsFetch
    }

    private let store: QSStore
    private let binding: TypeBinding<Object>
    private let request: FetchRequest
    /// The model names of every type whose changes can change the results.
    private let watchedTypeNames: Set<String>
    /// The types on the query's own table.
    private let ownTableTypeNames: Set<String>
    /// Every word of the condition and order (lower-cased), plus the indexed columns of a search
    /// table they name: the columns whose change can change membership or order.
    private let wordsRead: Set<String>

    private(set) var objects: [Object] = []
    private(set) var refetchCount = 0
    private(set) var patchCount = 0
    private(set) var isFinished = false
    var onEvent: (@MainActor (Event) -> Void)?

    private var isLoading = true
    /// The results reflect every commit up to this number.
    private var reflectedCommit: UInt64 = 0
    private var newestRelevantCommit: UInt64 = 0
    private var refetchTask: Task<Void, Never>?
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(store: QSStore, query: QSQuery<Object>) throws {
        let registry = store.registry
        let binding = try registry.binding(for: Object.self)
        self.store = store
        self.binding = binding
        self.request = query.request
        let table = binding.description.table
        let ownTable = registry.all.filter { $0.description.table == table }
        ownTableTypeNames = Set(ownTable.map(\.description.name))
        watchedTypeNames = Self.typeNames(dependedOnBy: binding, extra: query.watchedTypeNames, registry: registry)
        var words = sqlWords(in: (query.condition ?? "") + " " + (query.orderBy ?? ""))
        for search in ownTable.compactMap(\.description.search) where words.contains(search.table.lowercased()) {
            words.formUnion(search.columns.map { $0.lowercased() })
        }
        wordsRead = words
    }

    /// The types on the tables the query reads: its own, its related types' (all the way down),
    /// and those of the extra types named.
    private static func typeNames(dependedOnBy binding: any AnyTypeBinding, extra: Set<String>, registry: TypeRegistry) -> Set<String> {
        var tables: Set<String> = []
        var visited: Set<String> = []
        var pending: [any AnyTypeBinding] = [binding] + extra.compactMap { registry.binding(named: $0) }
        while let next = pending.popLast() {
            guard visited.insert(next.description.name).inserted else { continue }
            tables.insert(next.description.table)
            pending += next.description.relationships.compactMap { registry.binding(named: $0.childType) }
        }
        return Set(registry.all.filter { tables.contains($0.description.table) }.map(\.description.name)).union(extra)
    }

    // MARK: Lifecycle

    /// Fetches the first results and starts following changes.
    func start() async throws {
        store.changeCenter.addListener(self)
        do {
            let fetched = try await store.fetchRowsNumbered(binding, request)
            self.objects = fetched.objects
            reflectedCommit = fetched.commitNumber
            isLoading = false
        } catch {
            stop()
            throw error
        }
        if newestRelevantCommit > reflectedCommit { scheduleRefetch() }
    }

    func stop() {
        guard !isFinished else { return }
        isFinished = true
        store.changeCenter.removeListener(self)
        resumeWaiters()
    }

    func storeDidClose() {
        guard !isFinished else { return }
        isFinished = true
        resumeWaiters()
        onEvent?(.finished)
    }

    /// Returns once the results reflect every change committed before the call.
    func waitUntilCurrent() async throws {
        try await store.deliverCommittedChanges()
        while refetchTask != nil && !isFinished {
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    // MARK: Following changes

    func didCommit(_ change: QSChange, commitNumber: UInt64) {
        guard !isFinished, commitNumber > reflectedCommit,
              !change.typeNames.isDisjoint(with: watchedTypeNames)
        else { return }
        if isLoading || refetchTask != nil {
            newestRelevantCommit = max(newestRelevantCommit, commitNumber)
            return
        }
        switch effect(of: change) {
        case .none:
            reflectedCommit = commitNumber
        case .alreadyApplied:
            reflectedCommit = commitNumber
            patchCount += 1
            onEvent?(.results)
        case .needsFetch:
            newestRelevantCommit = commitNumber
            scheduleRefetch()
        }
    }

    /// Whether the results must be fetched again. They need not be after a bulk update of the
    /// query's own table that sets no column the condition or order reads: no row joins or
    /// leaves the results and the order holds. The store has already patched the instances it
    /// shares (uniqued or cached classes), which are the ones in the results, so nothing is left
    /// to do; other types (values) are fetched again.
    private func effect(of change: QSChange) -> Effect {
        guard let update = change.bulkUpdate, update.table == binding.description.table,
              change.typeNames.isSubset(of: ownTableTypeNames),
              !update.columns.contains(where: { wordsRead.contains($0.lowercased()) })
        else { return .needsFetch }
        guard update.columns.contains(where: { binding.layout.index(of: $0) != nil }) else { return .none }
        guard Object.self is any QSUpdatableObject.Type, binding.cache.policy != .none else { return .needsFetch }
        let updated = change.changesByType[Object.modelName]?.updated ?? []
        return objects.contains { updated.contains($0.uniqueID.anyID) } ? .alreadyApplied : .none
    }

    private func scheduleRefetch() {
        guard refetchTask == nil else { return }
        refetchTask = Task { [weak self] in await self?.refetchUntilCurrent() }
    }

    private func refetchUntilCurrent() async {
        while !isFinished && newestRelevantCommit > reflectedCommit {
            do {
                let fetched = try await store.fetchRowsNumbered(binding, request)
                guard !isFinished else { break }
                self.objects = fetched.objects
                reflectedCommit = max(reflectedCommit, fetched.commitNumber)
                refetchCount += 1
                onEvent?(.results)
            } catch {
                // This burst is given up; the next relevant change tries again.
                reflectedCommit = newestRelevantCommit
                onEvent?(.failure(error))
            }
        }
        refetchTask = nil
        resumeWaiters()
    }

    private func resumeWaiters() {
        let waiting = waiters
        waiters = []
        waiting.forEach { $0.resume() }
    }
}
