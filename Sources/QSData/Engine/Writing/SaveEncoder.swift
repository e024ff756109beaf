/// Turns the objects given to a save into the rows its write will hold, and makes the
/// cached instances of other types on the same table show the saved values.
@MainActor
struct SaveEncoder {
    /// A save of more objects than this is encoded in chunks over several main-actor turns, its
    /// write taking each chunk as it comes (see ``LargeSaveEncoding``); a smaller one is encoded
    /// at once.
    static let largeSaveThreshold = 500

    /// How many objects a chunk of a large save holds: about half a millisecond of encoding for a
    /// note with a few columns, two tags and an attachment. Small, so that the rows one chunk
    /// writes stay within SQLite's page cache while the next is written: with chunks of 500,
    /// adding a child to each of 1,000 parents wrote pages that had been spilled from the cache
    /// once again, thousands of times.
    static let chunkSize = 100

    /// How long the main actor goes on encoding chunks in one turn before it lets other work
    /// run. The chunks of a turn are handed to the database queue together, at its end, so that
    /// the queue wakes once a turn rather than once a chunk.
    static let turnBudget = Duration.milliseconds(2)

    let registry: TypeRegistry
    /// The save's ``WriteStamp``, taken when the app called it.
    let stamp: UInt64
    /// Whether held instances that changed nothing are left out of the rows (see
    /// ``SaveBatch/skipsUnchanged``).
    let skipsUnchanged: Bool

    /// Encodes `objects` at once; returns their rows and what the save changed in memory.
    func encode<Object>(_ objects: [Object], binding: TypeBinding<Object>) throws -> (groups: [SaveGroup], touches: MemoryTouches) {
        var batch = SaveBatch(stamp: stamp, skipsUnchanged: skipsUnchanged, outsideReadsMerged: registry.outsideReadsMerged.count)
        do {
            try binding.encode(objects, in: 0 ..< objects.count, into: &batch, registry: registry)
            let groups = batch.finished
            let touches = MemoryTouches(stamp: stamp)
            try patchSiblings(of: groups, touches: touches)
            batch.keepEncodedInstances()
            batch.handedOver()
            noteMarksInFlight(groups)
            return (groups, touches)
        } catch {
            batch.putBackTakenMarks()
            throw error
        }
    }

    /// Encodes the first chunk of a large save now and the rest in later main-actor turns, each
    /// handed to `encoding` as it is done, for the save's write to take on the queue meanwhile.
    /// Stops early when the write has failed; ``LargeSaveEncoding/encodeRestNow()`` encodes
    /// whatever is left at once.
    func beginEncoding<Object>(_ objects: [Object], binding: TypeBinding<Object>) throws -> LargeSaveEncoding {
        let encoding = LargeSaveEncoding(stamp: stamp, skipsUnchanged: skipsUnchanged, outsideReadsMerged: registry.outsideReadsMerged.count)
        binding.cache.reserveCapacity(adding: objects.count)
        try encodeChunk(of: objects, from: 0, binding: binding, into: encoding)
        encoding.nextStart = Self.chunkSize
        // Size the set of written children for the whole save now, from the first chunk, so it
        // never stops a later chunk to grow.
        encoding.batch.reserveChildCapacity(forObjects: objects.count, afterEncoding: Self.chunkSize)
        let inTransit = ObjectsInTransit(value: objects)
        encoding.encodeRest = {
            while encodeNextChunk(of: inTransit.value, binding: binding, into: encoding) {}
        }
        encodeLater(inTransit, binding: binding, into: encoding)
        return encoding
    }

    /// Encodes the next chunks at a later turn, for up to ``turnBudget``, and so on until the last.
    private func encodeLater<Object>(_ objects: ObjectsInTransit<[Object]>, binding: TypeBinding<Object>, into encoding: LargeSaveEncoding) {
        Task { @MainActor in
            let turnEnds = ContinuousClock.now + Self.turnBudget
            while encodeNextChunk(of: objects.value, binding: binding, into: encoding) {
                if ContinuousClock.now >= turnEnds {
                    encoding.wakeWriter()
                    encodeLater(objects, binding: binding, into: encoding)
                    return
                }
            }
        }
    }

    /// Encodes the chunk at `encoding.nextStart`; returns whether any is left. After the last,
    /// or when the encoding is to stop, it ends the encoding. A failure ends it too: the write
    /// throws it on the queue and rolls back like any failed write.
    private func encodeNextChunk<Object>(of objects: [Object], binding: TypeBinding<Object>, into encoding: LargeSaveEncoding) -> Bool {
        guard !encoding.hasEnded else { return false }
        let start = encoding.nextStart
        guard start < objects.count, !encoding.shouldStop else {
            // Stopped, the save's write must not go on as if its last chunk had come: it is being
            // rolled back (it failed, or the batch it is in threw).
            if encoding.shouldStop { encoding.fail(WriteAbandoned()) } else { encoding.finish() }
            encoding.encodeRest = nil  // lets the saved objects go
            return false
        }
        do {
            try encodeChunk(of: objects, from: start, binding: binding, into: encoding)
            encoding.nextStart = start + Self.chunkSize
            return true
        } catch {
            encoding.fail(error)
            encoding.encodeRest = nil
            return false
        }
    }

    private func encodeChunk<Object>(of objects: [Object], from start: Int, binding: TypeBinding<Object>, into encoding: LargeSaveEncoding) throws {
        let end = min(start + Self.chunkSize, objects.count)
        do {
            try binding.encode(objects, in: start ..< end, into: &encoding.batch, registry: registry)
            let groups = encoding.batch.finished
            try patchSiblings(of: groups, touches: encoding.touches)
            encoding.batch.keepEncodedInstances()
            encoding.batch.startNextChunk()
            encoding.add(groups)
            encoding.batch.handedOver()
            noteMarksInFlight(groups)
        } catch {
            encoding.batch.putBackTakenMarks()
            throw error
        }
    }

    /// The marks the save took are in flight until it commits (see
    /// ``ObjectCache/noteMarkedInFlight(_:of:stamp:)``).
    private func noteMarksInFlight(_ groups: [SaveGroup]) {
        for group in groups where !group.markedColumns.isEmpty {
            group.binding.noteMarkedInFlight(group.markedColumns, of: group.ids, stamp: stamp)
        }
    }

    /// Other types on the same table see what was just saved. `touches` learns every cached
    /// instance the save changed. A value-type child reached through a parent changes no row
    /// that exists (see ``SaveGroup/reachedThroughParent``), so it patches nothing.
    ///
    /// When an instance refuses the saved values (its `update(from:)` throws), the error is
    /// thrown on, and the instances patched before it take back the values they held: nothing
    /// of the save will be written.
    private func patchSiblings(of groups: [SaveGroup], touches: MemoryTouches) throws {
        // With every earlier write settled, no patch from one can come after this save's.
        let timing: PatchTiming = skipsUnchanged ? .atOnce : .saved(stamp: stamp)
        var patched: [(sibling: any AnyTypeBinding, held: [(id: QSAnyID, values: [String: SQLValue]?)])] = []
        do {
            try patchSiblings(of: groups, timing: timing, touches: touches) { sibling, id, columns in
                patched.append((sibling, sibling.heldValues(ids: [id], columns: Array(columns.keys))))
            }
        } catch {
            for (sibling, held) in patched.reversed() { sibling.putBack(held) }
            throw error
        }
        // A save notes its stamp for the whole row, whatever the columns.
        for (sibling, held) in patched { sibling.notePatched(held.map(\.id), columns: [], timing: timing) }
    }

    private func patchSiblings(
        of groups: [SaveGroup], timing: PatchTiming, touches: MemoryTouches,
        beforePatching: (any AnyTypeBinding, QSAnyID, [String: SQLValue]) -> Void
    ) throws {
        for group in groups {
            touches.changed(group.binding, ids: group.ids)
            let siblings = registry.siblings(of: group.binding).filter(\.cachesInstances)
            guard !siblings.isEmpty else { continue }
            let names = group.binding.layout.names
            for (offset, id) in group.ids.enumerated()
            where !group.isReachedThroughParent(offset) && !group.isUnchanged(offset) {
                for sibling in siblings where sibling.hasCachedInstance(id) {
                    let columns = Dictionary(uniqueKeysWithValues: zip(names, group.rows.values(at: offset)))
                    beforePatching(sibling, id, columns)
                    touches.changed(sibling, ids: try sibling.patchCachedInstances(ids: [id], with: columns, timing: timing))
                }
            }
        }
    }
}
