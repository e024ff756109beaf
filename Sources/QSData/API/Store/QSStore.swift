import CSQLite
import Foundation

/// The store: fetches, saves, caches and observes the app's model objects.
///
/// Model objects live on the main actor; every SQL statement runs on one background serial
/// queue, in the order the app asked. Writes are enqueued and not awaited; a fetch sees every
/// write enqueued before it; ``flush()`` waits for the queue. The main actor never waits on SQL.
/// ```swift
/// let store = try await QSStore.open(
///     at: databaseURL,
///     model: try QSDataModel(contentsOf: modelURL),
///     schema: try QSSchema(creationFile: schemaURL),
///     types: [Note.self, Tag.self])
/// try store.save(note)                                   // enqueued
/// let notes = try await store.fetch(Note.self, where: "archived = 0", orderBy: "sortDate DESC")
/// ```
@MainActor
public final class QSStore {
    /// The database file.
    public let url: URL
    /// The data model the store was opened with.
    public let model: QSDataModel
    let registry: TypeRegistry
    /// Where every piece of work enters the database queue, in order.
    let database: QueueEntrance
    /// The reader connections, for reads issued while a background write runs.
    let readers: ReaderPool
    /// The instances reads on readers made, on their way to the queue's tables.
    let readAdoptions: ReadAdoptions
    let changeCenter: ChangeCenter
    /// Whether ``close()`` has been called; a closed store refuses every fetch and write.
    public private(set) var isClosed = false
    /// The batch ``performBatch(_:)`` or ``performInBackground(_:)`` is running; nil outside one.
    var openBatch: OpenBatch?
    /// Large saves whose later chunks are still to be encoded in coming main-actor turns.
    var largeSavesBeingEncoded: [LargeSaveEncoding] = []
    /// Wakes the store when the file is written, so that other writers' changes arrive unasked.
    private var fileWatcher: FileChangeWatcher?

    private init(
        url: URL, model: QSDataModel, registry: TypeRegistry, database: DatabaseQueue, readers: ReaderPool,
        readAdoptions: ReadAdoptions, finishedWrites: FinishedWrites
    ) {
        self.changeCenter = ChangeCenter(finishedWrites: finishedWrites)
        self.readers = readers
        self.readAdoptions = readAdoptions
        self.url = url
        self.model = model
        self.registry = registry
        self.database = QueueEntrance(queue: database, registry: registry)
        changeCenter.whenAllSettled = { registry.forgetWriteTimings() }
        changeCenter.whenMarksWritten = { registry.forgetMarkedInFlight(upTo: $0) }
        let entrance = self.database
        registry.outsideReadsMerged.whenMerged = { read in
            entrance.enqueueLetting { state in state?.replacedSnapshots.forget(upTo: read) }
        }
    }

    /// Opens the database at `url` (creating it from `schema` when new, migrating it when older),
    /// checks `model` against the schema and each type against the model, then fetches the
    /// types marked `fetchAllAtStartup`.
    ///
    /// Opening is all or nothing: when it fails, a file it created is removed, and an existing
    /// file is left exactly as it was (the creation SQL, the migrations and the checks run in one
    /// transaction). A database written by a newer app (see ``QSSchema``) is refused unchanged.
    ///
    /// - Parameters:
    ///   - url: the database file; created when missing.
    ///   - model: the object types, usually loaded with ``QSDataModel/init(contentsOf:)``.
    ///   - schema: the SQL that creates and migrates the database.
    ///   - types: every Swift type the app stores; each must be declared in the model
    ///     under its ``QSDataObject/modelName``.
    ///   - options: how many reader connections to use, and how large the write-ahead log may stay.
    /// - Throws: ``QSDataError`` naming what is wrong: the file, a database too new, a migration,
    ///   a schema mismatch, a type that does not match the model; or ``SQLiteError``.
    public static func open(
        at url: URL, model: QSDataModel, schema: QSSchema, types: [any QSDataObject.Type], options: QSStoreOptions = QSStoreOptions()
    ) async throws -> QSStore {
        let registry = try makeRegistry(model: model, types: types)
        let database = DatabaseQueue()
        let isNewFile = !FileManager.default.fileExists(atPath: url.path)
        let finishedWrites = FinishedWrites()
        let readAdoptions = ReadAdoptions()
        do {
            try await database.open(path: url.path, valueChildTables: registry.valueChildTables)
            try await database.perform { state in
                let connection = state.connection
                // A file that fails validation is left exactly as it was: any creation or
                // migration is rolled back, and WAL is switched on only after it passes.
                try SchemaInstaller(schema: schema, path: url.path).install(on: connection) { connection in
                    let report = try SchemaValidator(model: model).check(connection)
                    var problems = report.problems
                    if problems.isEmpty {
                        problems = Self.statementProblems(registry: registry, connection: connection)
                    }
                    if !problems.isEmpty { throw QSDataError.schemaMismatch(problems) }
                    for binding in registry.all {
                        binding.tableFacts.columnsMissingForInsert = report.columnsMissingByType[binding.description.name] ?? []
                        binding.tableFacts.uniqueIDIsRowID = report.tablesKeyedByRowID.contains(binding.description.table)
                    }
                }
                try connection.useWriteAheadLog()
                try connection.execute("PRAGMA journal_size_limit = \(options.walSizeLimit)")
                state.readAdoptions = readAdoptions
                state.walSizeLimit = options.walSizeLimit
                try Self.startChangeLog(model: model, registry: registry, finishedWrites: finishedWrites, state: state)
            }
            let readers = ReaderPool(path: url.path, options: options)
            let store = QSStore(url: url, model: model, registry: registry, database: database, readers: readers, readAdoptions: readAdoptions, finishedWrites: finishedWrites)
            store.watchForOtherWriters(queue: database)
            for binding in registry.all where binding.description.fetchAllAtStartup {
                try await store.loadAtStartup(binding)
            }
            return store
        } catch {
            await database.close()
            if isNewFile { removeDatabaseFiles(at: url) }
            throw error
        }
    }

    /// Starts the file watcher whose wake-ups take in other connections' commits.
    private func watchForOtherWriters(queue: DatabaseQueue) {
        let center = changeCenter
        let wakeUps = OutsideChangeWakeUps(queue: queue) { [weak center] in
            Task { @MainActor in center?.deliverFinishedWork() }
        }
        let watcher = FileChangeWatcher(path: url.path) { wakeUps.wake() }
        fileWatcher = watcher
        queue.enqueue { state in state?.fileWatcher = watcher }
    }

    /// Installs the change log's tables and triggers where missing, and starts reading it at its end.
    nonisolated private static func startChangeLog(model: QSDataModel, registry: TypeRegistry, finishedWrites: FinishedWrites, state: QueueState) throws {
        let connection = state.connection
        guard FileTriggerSwitch.isSupported else {
            throw QSDataError.sqliteTooOld(version: SQLiteConnection.sqliteVersion, needed: "3.35.0")
        }
        let plan = try ChangeLogTables.plan(for: model, on: connection)
        do {
            if !connection.isReadOnly { try ChangeLogTables.install(plan.tables, on: connection) }
        } catch let error as SQLiteError where error.code == SQLITE_READONLY {
            // A file the store may only read: it reads the log as it is.
        }
        guard try ChangeLogTables.hasTables(on: connection) else { return }  // read-only, made before the log
        let log = ChangeLog(model: model, typesByTable: plan.typesByTable)
        try log.start(on: connection)
        state.changeLog = log
        state.outsideChanges = OutsideChanges(registry: registry, finishedWrites: finishedWrites)
    }

    /// Removes a database file the store created, with SQLite's side files.
    private static func removeDatabaseFiles(at url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            // The open's own error is what the caller needs; a file that can't be removed
            // (its folder made read-only meanwhile) can't be helped here.
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    private static func makeRegistry(model: QSDataModel, types: [any QSDataObject.Type]) throws -> TypeRegistry {
        var bindings: [(type: Any.Type, binding: any AnyTypeBinding)] = []
        for type in types {
            bindings.append((type, try makeBinding(type, model: model)))
        }
        let registered = Set(bindings.map(\.binding.description.name))
        for (_, binding) in bindings {
            let missing = binding.description.relationships.filter { !registered.contains($0.childType) }
            if !missing.isEmpty {
                throw QSDataError.typeMismatch(
                    type: binding.description.name,
                    problems: missing.map { "relationship '\($0.name)' needs \($0.childType), which is not among the registered types" })
            }
        }
        return TypeRegistry(bindings: bindings, model: Array(model.objectTypes.values))
    }

    private static func makeBinding<Object: QSDataObject>(_ type: Object.Type, model: QSDataModel) throws -> any AnyTypeBinding {
        guard let description = model[Object.modelName] else {
            throw QSDataError.typeMismatch(type: Object.modelName, problems: ["the data model declares no object type named '\(Object.modelName)'"])
        }
        let binding = TypeBinding<Object>(description: description)
        let problems = TypeVerifier<Object>(description: description, layout: binding.layout).problems()
        if !problems.isEmpty { throw QSDataError.typeMismatch(type: Object.modelName, problems: problems) }
        return binding
    }

    /// Prepares each type's statements once, which catches what the column check can't see,
    /// such as a uniqueID that is neither the primary key nor unique.
    nonisolated private static func statementProblems(registry: TypeRegistry, connection: SQLiteConnection) -> [String] {
        registry.all.compactMap { binding in
            do {
                _ = try connection.statement(binding.sql.insert)
                _ = try connection.statement(binding.sql.select)
                return nil
            } catch let error as SQLiteError where error.message.contains("ON CONFLICT") {
                return "\(binding.description.name): uniqueID must be the PRIMARY KEY of '\(binding.description.table)' or UNIQUE (\(error.message))"
            } catch {
                return "\(binding.description.name): \(error)"
            }
        }
    }

    private func loadAtStartup(_ binding: any AnyTypeBinding) async throws {
        if let loadable = binding as? any StartupLoadable {
            try await loadable.load(into: self)
        }
    }

    // MARK: Flushing and closing

    /// Waits until every operation enqueued so far has finished, delivers their change
    /// notifications, and throws the first write failure since the previous flush.
    public func flush() async throws {
        try await database.performLetting { _ in () }
        changeCenter.deliverFinishedWork()
        if let failure = changeCenter.takeUnreportedErrors().first { throw failure }
    }

    /// Flushes, then closes the database. The store can't be used afterwards.
    ///
    /// Closing always closes: when a write enqueued earlier failed, the store still finishes
    /// every write, closes the file, sets ``isClosed`` and ends its change streams, observers
    /// and live queries, and then throws the first failure not reported yet (as ``flush()``
    /// would have). Calling it again does nothing.
    public func close() async throws {
        guard !isClosed else { return }
        var failure: (any Error)?
        do {
            try await flush()
        } catch {
            failure = error
        }
        isClosed = true
        fileWatcher?.stop()
        fileWatcher = nil
        do {
            try await database.perform { state in try state.changeLog?.stop(on: state.connection) }
        } catch {
            failure = failure ?? error
        }
        await database.close()
        await readers.close()
        changeCenter.finishAll()
        if let failure { throw failure }
    }

    /// Records every SQL statement the store runs while `body` runs, including the writes it
    /// enqueues and the reads that run on reader connections. Transaction control is listed but
    /// not counted.
    /// ```swift
    /// let log = try await store.recordStatements { try store.delete(notes) }
    /// #expect(log.count == 3)
    /// ```
    public func recordStatements(_ body: () async throws -> Void) async throws -> QSStatementLog {
        let recorder = StatementRecorder()
        database.enqueueLetting { state in state?.connection.startRecording(recorder) }
        readers.recorder.withLock { $0 = recorder }
        var bodyError: (any Error)?
        do { try await body() } catch { bodyError = error }
        readers.recorder.withLock { $0 = nil }
        let statements = try await database.performLetting { state in
            state.connection.stopRecording()
            return recorder.statements
        }
        changeCenter.deliverFinishedWork()
        if let bodyError { throw bodyError }
        return QSStatementLog(all: statements)
    }

    func checkOpen() throws {
        if isClosed { throw QSDataError.storeClosed }
    }

    /// Where every write begins: the store must be open, and a large save still being encoded
    /// is finished now, in this turn, so that what the writes change in memory changes in the
    /// order the app made them (a later write in the same turn, or a batch, would otherwise see
    /// the save's later chunks cache their instances after its own changes).
    func beginWrite() throws {
        try checkOpen()
        guard !largeSavesBeingEncoded.isEmpty else { return }
        let encodings = largeSavesBeingEncoded
        largeSavesBeingEncoded = []
        for encoding in encodings { encoding.encodeRestNow() }
    }
}
