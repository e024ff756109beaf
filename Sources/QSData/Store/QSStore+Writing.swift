/// Saving, deleting and bulk updates. Each call changes the in-memory objects at once (the main
/// actor wins), enqueues its SQL in one transaction and returns without waiting. Observers hear
/// once the transaction commits; a failed write is rolled back and reported (see ``QSWriteError``).
///
/// The methods throw only for mistakes found before any SQL runs: an unregistered type, a
/// column the model does not declare, a value that can't be encoded.
extension QSStore {
    /// Saves one object with its relationships, as saving an array of one does.
    @discardableResult
    public func save<Object: QSDataObject>(_ object: Object, source: QSChangeSource = .app) throws -> QSWrite {
        try save([object], source: source)
    }

    /// Inserts new objects and updates existing ones, with their related objects and the order
    /// of each relationship. Unchanged rows and unchanged lookup rows are not rewritten.
    ///
    /// Relationship rule: children are stored in the order given; a child listed twice keeps its
    /// first position. Related objects are saved too. Cached instances of other types on the same
    /// table are patched with the saved values.
    ///
    /// - Parameters:
    ///   - objects: The objects to save, all of one type.
    ///   - source: Who made the change, reported to observers: the app (the default) or sync.
    ///   - alongside: SQL of the app's own to run in the same transaction, after the store's
    ///     statements (for tables outside the model, such as an outbox).
    @discardableResult
    public func save<Object: QSDataObject>(
        _ objects: [Object], source: QSChangeSource = .app, alongside: (@Sendable (SQLiteConnection) throws -> Void)? = nil
    ) throws -> QSWrite {
        try checkOpen()
        _ = WriteStamp.next()
        let binding = try registry.binding(for: Object.self)
        var batch = SaveBatch()
        guard objects.count > Self.saveChunkSize else {
            try binding.encode(objects, into: &batch, registry: registry)
            let groups = batch.finished
            let touches = MemoryTouches()
            try patchSiblings(of: groups, touches: touches)
            return submitWrite("save \(objects.count) \(Object.modelName)", source: source, touches: touches) { writer, change in
                try writer.save(groups, into: &change)
                try alongside?(writer.connection)
                return nil
            }
        }
        // A large save: the first chunk now, the rest one per main-actor turn. Its write and
        // everything handed to the queue after it wait at the entrance until the last chunk is
        // encoded (see QueueEntrance), so the queue never waits for the main actor.
        let encoding = LargeSaveEncoding(batch)
        let touches = MemoryTouches()
        binding.cache.reserveCapacity(adding: objects.count)
        try encodeChunk(of: objects, from: 0, binding: binding, into: encoding, touches: touches)
        // Size the set of written children for the whole save now, from the first chunk, so it
        // never stops a later chunk to grow.
        encoding.batch.reserveChildCapacity(forObjects: objects.count, afterEncoding: Self.saveChunkSize)
        database.hold()
        let write = submitWrite("save \(objects.count) \(Object.modelName)", source: source, touches: touches) { writer, change in
            for groups in try encoding.encodedChunks() {
                try writer.save(groups, into: &change)
            }
            try alongside?(writer.connection)
            return nil
        }
        feedRemainingChunks(of: ObjectsInTransit(value: objects), from: Self.saveChunkSize, binding: binding, into: encoding, touches: touches)
        return write
    }

    /// How many objects a save encodes per main-actor turn: about a millisecond of work.
    static let saveChunkSize = 500

    private func encodeChunk<Object>(
        of objects: [Object], from start: Int, binding: TypeBinding<Object>, into encoding: LargeSaveEncoding, touches: MemoryTouches
    ) throws {
        let end = min(start + Self.saveChunkSize, objects.count)
        try binding.encode(Array(objects[start..<end]), into: &encoding.batch, registry: registry)
        let groups = encoding.batch.takeFinished()
        try patchSiblings(of: groups, touches: touches)
        encoding.add(groups)
    }

    /// Encodes the chunks after `start`, one per main-actor turn, then lets the save's write
    /// (and what waited behind it) go to the queue. A failure ends the encoding: the write then
    /// throws it on the queue, and rolls back like any failed write.
    private func feedRemainingChunks<Object>(
        of objects: ObjectsInTransit<[Object]>, from start: Int, binding: TypeBinding<Object>, into encoding: LargeSaveEncoding, touches: MemoryTouches
    ) {
        guard start < objects.value.count else {
            database.release()
            return
        }
        Task { @MainActor in
            do {
                try self.encodeChunk(of: objects.value, from: start, binding: binding, into: encoding, touches: touches)
                self.feedRemainingChunks(of: objects, from: start + Self.saveChunkSize, binding: binding, into: encoding, touches: touches)
            } catch {
                encoding.fail(error)
                self.database.release()
            }
        }
    }

    /// Sets properties on the objects with these uniqueIDs in one statement. Live and
    /// cached instances of every type on the table reflect it at once.
    ///
    /// When a cached instance can't take the new values (its `update(from:)` throws), this
    /// throws that error, nothing is written, and the instances already patched are brought
    /// back to what the database holds.
    /// ```swift
    /// try store.update(Article.self, ids: unreadIDs, set: ["read": true])
    /// ```
    @discardableResult @inlinable
    public func update<Object: QSDataObject>(
        _ type: Object.Type, ids: some Sequence<Object.UniqueID>, set values: [String: any QSColumnValue], source: QSChangeSource = .app
    ) throws -> QSWrite {
        // Listed in the app's code, compiled for its ID type: in the store's generic code each
        // ID would cost a trip through the protocol's witness table.
        try update(type, anyIDs: ids.map { $0.anyID }, set: values, source: source)
    }

    @usableFromInline
    func update<Object: QSDataObject>(
        _ type: Object.Type, anyIDs ids: [QSAnyID], set values: [String: any QSColumnValue], source: QSChangeSource
    ) throws -> QSWrite {
        try checkOpen()
        _ = WriteStamp.next()
        let binding = try registry.binding(for: type)
        let columns = try columnValues(values, for: binding)
        let patch = Dictionary(uniqueKeysWithValues: columns.map { ($0.name, $0.value) })
        let bindings = [binding] + registry.siblings(of: binding)
        let touches = MemoryTouches()
        // A restore after a failure brings back every instance the patch may have reached.
        for typeBinding in bindings { touches.changed(typeBinding, ids: ids) }
        // The instances change first, here; only when every one took the new values does the
        // UPDATE go to the queue, which records the new values in the row snapshots itself.
        do {
            for typeBinding in bindings {
                try typeBinding.patchCachedInstances(ids: ids, with: patch, timing: .atOnce)
            }
        } catch {
            restoreMemory(touchedBy: [(touches, source)])
            throw error
        }
        let argument = IDList.json(ids)
        return submitWrite("update \(ids.count) \(Object.modelName)", source: source, touches: touches) { writer, change in
            try writer.update(binding, columns: columns, ids: ids, idList: argument, into: &change)
            return nil
        }
    }

    /// Sets properties on the rows an SQL condition selects, in one statement; cached instances
    /// are patched once it commits.
    ///
    /// A cached instance that can't take the new values (its `update(from:)` throws) is
    /// forgotten, and the failure is reported like a failed write (see ``QSWriteError``), with
    /// ``QSWriteError/wasRolledBack`` false: the update itself stays committed.
    @discardableResult
    public func update<Object: QSDataObject>(
        _ type: Object.Type, where condition: String, arguments: [SQLValue] = [], set values: [String: any QSColumnValue], source: QSChangeSource = .app
    ) throws -> QSWrite {
        try checkOpen()
        let stamp = WriteStamp.next()
        let binding = try registry.binding(for: type)
        let columns = try columnValues(values, for: binding)
        let patch = Dictionary(uniqueKeysWithValues: columns.map { ($0.name, $0.value) })
        let registry = self.registry
        return submitWrite("update \(Object.modelName) where \(condition)", source: source) { writer, change in
            let ids = try writer.update(binding, columns: columns, where: condition, arguments: arguments, into: &change)
            return {
                var failure: (any Error)?
                for typeBinding in [binding] + registry.siblings(of: binding) {
                    do {
                        try typeBinding.patchCachedInstances(ids: ids, with: patch, timing: .afterCommit(of: stamp))
                    } catch {
                        // Instances that could not take the new values are forgotten, so the
                        // next fetch reads the rows afresh.
                        typeBinding.evict(ids, afterCommitOf: stamp)
                        failure = failure ?? error
                    }
                }
                if let failure { throw failure }
            }
        }
    }

    // MARK: Helpers

    /// Checks the column names against the model and converts the values to the columns' types.
    private func columnValues(_ values: [String: any QSColumnValue], for binding: any AnyTypeBinding) throws -> [(name: String, value: SQLValue)] {
        guard !values.isEmpty else {
            throw QSDataError.unknownColumn(type: binding.description.name, column: "(none: an update must set at least one column)")
        }
        return try values.keys.sorted().map { name in
            guard name != "uniqueID", let property = binding.description.property(named: name), let value = values[name] else {
                throw QSDataError.unknownColumn(type: binding.description.name, column: name)
            }
            guard type(of: value).canStore(property.type) else {
                throw QSDataError.cannotWrite(
                    type: binding.description.name, column: name,
                    expected: property.type.rawValue, found: String(describing: type(of: value)))
            }
            return (name, try value.columnValue(as: property.type))
        }
    }

    /// Other types on the same table see what was just saved. `touches` learns every cached
    /// instance the save changed.
    private func patchSiblings(of groups: [SaveGroup], touches: MemoryTouches) throws {
        for group in groups {
            touches.changed(group.binding, ids: group.ids)
            let siblings = registry.siblings(of: group.binding).filter(\.cachesInstances)
            guard !siblings.isEmpty else { continue }
            let names = group.binding.layout.names
            for (id, row) in zip(group.ids, group.rows) {
                for sibling in siblings where sibling.hasCachedInstance(id) {
                    let columns = Dictionary(uniqueKeysWithValues: zip(names, row.values))
                    touches.changed(sibling, ids: try sibling.patchCachedInstances(ids: [id], with: columns, timing: .saved))
                }
            }
        }
    }
}
