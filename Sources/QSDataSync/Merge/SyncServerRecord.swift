/// An object as a sync server holds it: its merged ``SyncRecord`` and, for each of its parts,
/// the account's sequence number at which it last changed, so that a pull returns only what
/// changed after its token. Every server (QSData's, and the tests' in memory) keeps these.
public struct SyncServerRecord: Codable, Sendable, Equatable {
    public var record = SyncRecord()
    var createdAt: Int64 = 0
    var deletedAt: Int64 = 0
    var partsAt: [String: Int64] = [:]
    /// The latest of the numbers above: the record's place in the account's sequence.
    public var sequence: Int64 = 0

    public init() {}

    /// Merges an incoming change; when it changed anything, marks what changed with `number`.
    /// Returns whether it changed anything.
    public mutating func merge(_ incoming: SyncRecord, at number: Int64) -> Bool {
        let outcome = record.merge(incoming)
        guard outcome.changedAnything else { return false }
        if outcome.tookCreation { createdAt = number }
        if outcome.tookDeletion { deletedAt = number }
        for part in outcome.tookProperties { partsAt[part] = number }
        if !record.exists {
            // A deleted object's values are no longer served; its stamps stay, so that a late
            // edit still loses.
            record.values = [:]
        }
        sequence = number
        return true
    }

    /// The parts that changed after `number`, except those `replica` wrote: a deleted object is
    /// its deletion (and its creation, when that is newer than `number` too).
    public func changes(after number: Int64, leavingOut replica: SyncReplicaID? = nil) -> SyncRecord {
        func wanted(_ stamp: SyncStamp?) -> Bool { stamp.map { $0.replica != replica } ?? false }
        var changed = SyncRecord()
        if createdAt > number, wanted(record.created) { changed.created = record.created }
        if deletedAt > number, wanted(record.deleted) { changed.deleted = record.deleted }
        guard record.exists else { return changed }
        for (part, at) in partsAt where at > number && wanted(record.stamps[part]) {
            changed.stamps[part] = record.stamps[part]
            changed.values[part] = record.values[part]
        }
        return changed
    }

    /// What the server still needs of the record once every active replica has pulled past its
    /// ``sequence``: nothing for an object that doesn't exist (its deletion has reached them all),
    /// and for one that does, the record without the children its lists took out (each
    /// child's membership `null` and position key).
    ///
    /// A replica that has not pulled that far is told to pull everything again instead (see the
    /// protocol's `resyncRequired`), so no replica can miss what this removes.
    /// Whether collection would remove or trim the record: a server marks such records, so
    /// that collecting reads only them.
    public var hasSomethingToCollect: Bool { collected() != self }

    public func collected() -> SyncServerRecord? {
        guard record.exists else { return nil }
        var kept = self
        for (name, value) in record.values where value == .null {
            guard let part = SyncListPart(name: name), part.kind == .membership else { continue }
            let position = SyncListPart(list: part.list, child: part.child, kind: .position).name
            for gone in [name, position] {
                kept.record.values[gone] = nil
                kept.record.stamps[gone] = nil
                kept.partsAt[gone] = nil
            }
        }
        return kept
    }
}
