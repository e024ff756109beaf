import Foundation
import QSDataSync

/// An object as the server holds it (see ``SyncServerRecord``), stored as JSON.
public typealias ServerRecord = SyncServerRecord

extension SyncServerRecord {
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
