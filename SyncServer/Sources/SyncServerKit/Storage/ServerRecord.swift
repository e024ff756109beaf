import Foundation
import QSDataSync

/// An object as the server holds it: its merged ``SyncRecord`` and, for each of its parts, the
/// account sequence number at which it last changed, so that a pull returns only what changed
/// after its token. Stored as JSON.
public struct ServerRecord: Codable, Sendable, Equatable {
    public var record = SyncRecord()
    var createdAt: Int64 = 0
    var deletedAt: Int64 = 0
    var partsAt: [String: Int64] = [:]
    /// The latest of the numbers above: the record's place in the account's sequence.
    public var sequence: Int64 = 0

    public init() {}

    /// Merges an incoming change; when it changed anything, marks what changed with `sequence`.
    /// Returns whether it changed anything.
    mutating func merge(_ incoming: SyncRecord, at number: Int64) -> Bool {
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
    func changes(after number: Int64, leavingOut replica: SyncReplicaID? = nil) -> SyncRecord {
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

    static func decode(_ json: String, table: String, id: String) throws -> ServerRecord {
        do {
            return try JSONDecoder().decode(ServerRecord.self, from: Data(json.utf8))
        } catch {
            throw SyncStorageError.unreadableRecord(table: table, id: id)
        }
    }

    func json() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }
}

/// One push's merge, the same for every storage: the records it names (as the storage read
/// them), the changes merged into them in order, each changed record given the next number
/// of the account's sequence.
struct PushMerge {
    struct Key: Hashable {
        let table: String
        let id: String
    }

    private(set) var records: [Key: ServerRecord]
    /// The records that changed, in the order they first changed.
    private(set) var changed: [Key] = []
    private(set) var lastSequence: Int64
    private(set) var received = 0

    init(existing: [Key: ServerRecord], lastSequence: Int64) {
        records = existing
        self.lastSequence = lastSequence
    }

    /// The keys a push names, to read before merging.
    static func keys(of changes: [SyncChange]) -> [Key] {
        var seen: Set<Key> = []
        var keys: [Key] = []
        for change in changes {
            for id in change.ids {
                let key = Key(table: change.table, id: id.json)
                if seen.insert(key).inserted { keys.append(key) }
            }
        }
        return keys
    }

    mutating func merge(_ changes: [SyncChange]) {
        var changedKeys: Set<Key> = []
        for change in changes {
            let incoming = change.record
            for id in change.ids {
                received += 1
                let key = Key(table: change.table, id: id.json)
                var record = records[key] ?? ServerRecord()
                guard record.merge(incoming, at: lastSequence + 1) else { continue }
                lastSequence += 1
                records[key] = record
                if changedKeys.insert(key).inserted { changed.append(key) }
            }
        }
    }

    /// Objects whose records changed (a repeated push changes none).
    var applied: Int { changed.count }
}
