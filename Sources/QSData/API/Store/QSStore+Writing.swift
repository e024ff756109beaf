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
    /// first position. Related objects are saved too, except that a child of a value type (one
    /// the store keeps no instance of) is written only when its row does not exist yet: the copy
    /// a parent holds may be older than the row. To change a child's row, save the child. Cached
    /// instances of other types on the same table are patched with the saved values; when one
    /// can't take them (its `update(from:)` throws), the save throws that error before any SQL
    /// runs, and those patched before it take back the values they held.
    ///
    /// Another writer's change to a row (another process, another connection, the app's own raw
    /// SQL) that the store had not read when the app saved an instance of it is kept: the save
    /// writes only the columns the app changed, and the instance then shows both.
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
        try beginWrite()
        let stamp = WriteStamp.next()
        let binding = try registry.binding(for: Object.self)
        // The binding's name, not `Object.modelName`, whose default describes the type afresh
        // each time: a batch of many single saves spent a tenth of its time there.
        let operation = binding.saveOperation(count: objects.count)
        // With every earlier write settled and no batch open, each instance held shows its row
        // but for what the app marked since: those with nothing marked need no row at all.
        let skipsUnchanged = openBatch == nil && changeCenter.writesUnsettled == 0
        let encoder = SaveEncoder(registry: registry, stamp: stamp, skipsUnchanged: skipsUnchanged)
        guard objects.count > SaveEncoder.largeSaveThreshold else {
            let (groups, touches) = try encoder.encode(objects, binding: binding)
            let marksInFlight = groups.contains { !$0.markedColumns.isEmpty }
            return submitWrite(operation, source: source, touches: touches, marksTakenBy: marksInFlight ? stamp : nil) { writer, change in
                try writer.save(groups, into: &change)
                try alongside?(writer.connection)
                return nil
            }
        }
        // A large save is encoded a few chunks per main-actor turn; its write takes each chunk as
        // it is encoded, and everything handed to the queue after the save waits behind it.
        let encoding = try encoder.beginEncoding(objects, binding: binding)
        largeSavesBeingEncoded.append(encoding)
        // Whether its chunks take marks is known only as they are encoded: forgetting the marks
        // of a save that took none does nothing.
        let marksTakenBy = registry.hasTypesMarkingChanges ? stamp : nil
        return submitWrite(operation, source: source, touches: encoding.touches, largeSave: encoding, marksTakenBy: marksTakenBy) { writer, change in
            while let groups = try encoding.nextChunk() {
                try writer.save(groups, into: &change)
            }
            try alongside?(writer.connection)
            return nil
        }
    }

    /// Sets properties on the objects with these uniqueIDs in one statement. Live and
    /// cached instances of every type on the table reflect it at once.
    ///
    /// When a cached instance can't take the new values (its `update(from:)` throws), this
    /// throws that error, nothing is written, and the instances already patched are brought
    /// back: to what the database holds, or inside a batch (whose earlier writes the database
    /// does not hold yet) to the values they held before the call.
    /// ```swift
    /// try store.update(Article.self, ids: unreadIDs, set: ["read": true])
    /// ```
    @discardableResult @inlinable
    public func update<Object: QSDataObject>(
        _ type: Object.Type, ids: some Sequence<Object.UniqueID>, set values: [String: any QSColumnValue], source: QSChangeSource = .app
    ) throws -> QSWrite {
        // Listed in the app's code, compiled for its ID type: in the store's generic code each
        // ID would cost a trip through the protocol's witness table.
        try update(type, anyIDs: ids.anyIDs, set: values, source: source)
    }

    @usableFromInline
    func update<Object: QSDataObject>(
        _ type: Object.Type, anyIDs ids: [QSAnyID], set values: [String: any QSColumnValue], source: QSChangeSource
    ) throws -> QSWrite {
        try beginWrite()
        let stamp = WriteStamp.next()
        let binding = try registry.binding(for: type)
        let columns = try binding.columnValues(values)
        let patch = Dictionary(uniqueKeysWithValues: columns.map { ($0.name, $0.value) })
        let bindings = [binding] + registry.siblings(of: binding)
        let touches = MemoryTouches(stamp: stamp)
        // The columns set are noted only while an earlier write (unsettled, or in this batch) may
        // still patch or restore the same instances after this.
        let timing: PatchTiming = changeCenter.writesUnsettled > 0 || openBatch != nil ? .updatedByID(stamp: stamp) : .atOnce
        // A restore after a failure brings back every instance the patch may have reached.
        for typeBinding in bindings { touches.changed(typeBinding, ids: ids) }
        let argument = IDList.json(ids)
        let write = PendingWrite(
            operation: "update \(ids.count) \(Object.modelName)", source: source,
            work: { writer, change in
                try writer.update(binding, columns: columns, ids: ids, idList: argument, into: &change)
                return nil
            },
            touches: touches, ticket: QSWrite(operation: "update \(ids.count) \(Object.modelName)", center: changeCenter))
        func patchInstances() throws {
            let patched = try bindings.map { try $0.patchCachedInstances(ids: ids, with: patch, timing: timing) }
            // Noted only once every instance took the values: a refused update leaves nothing noted.
            for (typeBinding, patchedIDs) in zip(bindings, patched) {
                typeBinding.notePatched(patchedIDs, columns: Array(patch.keys), timing: timing)
            }
        }
        guard openBatch == nil else {
            // A write can't leave a batch's transaction once it has joined, so the instances change
            // first and the write joins only once they all took the values. When one refuses,
            // those patched before it take back the values they held, which may be an earlier
            // write of the batch's that has not committed yet.
            let held = bindings.map { $0.heldValues(ids: ids, columns: Array(patch.keys)) }
            do {
                try patchInstances()
            } catch {
                for (typeBinding, values) in zip(bindings, held) { typeBinding.putBack(values) }
                throw error
            }
            openBatch?.add(write)
            return write.ticket
        }
        // The UPDATE runs on the queue while the instances are patched here, and commits once
        // they are: the commit (or, when an instance refused the values, the rollback) is
        // enqueued right behind it, so the queue never waits for the main actor.
        let transaction = WriteTransaction(writes: [write], ticket: nil, registry: registry, finishedWrites: changeCenter.finishedWrites)
        changeCenter.writeHandedOver()
        database.enqueue { state in transaction.begin(on: state) }
        do {
            try patchInstances()
        } catch {
            finish(transaction, abandoned: true)
            throw error
        }
        finish(transaction, abandoned: false)
        return write.ticket
    }

    /// Enqueues the end of a transaction begun on the queue (see ``WriteTransaction/begin(on:)``).
    private func finish(_ transaction: WriteTransaction, abandoned: Bool) {
        database.enqueue { [weak self] state in
            transaction.finish(on: state, abandoned: abandoned)
            Task { @MainActor in self?.changeCenter.deliverFinishedWork() }
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
        try beginWrite()
        let stamp = WriteStamp.next()
        let binding = try registry.binding(for: type)
        let columns = try binding.columnValues(values)
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
}
