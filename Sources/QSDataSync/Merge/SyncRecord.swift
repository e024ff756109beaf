/// What one object is as sync sees it: when it was created and deleted, and each property's
/// value with the stamp it was set at. The server and every replica merge records with
/// ``merge(_:)``, the one merge function of the protocol.
///
/// The merge takes, part by part, whatever was stamped later: each property is its own
/// last-writer-wins value, and `created` and `deleted` keep their latest stamps. Taking the
/// later of two is the same whichever comes first and however often, so replicas that have
/// merged the same records hold the same data, in whatever order and however many times the
/// records reached them.
///
/// An object exists while its latest creation is later than its latest deletion. A delete
/// therefore wins over every edit made to the object, before or after it: an edit sets a
/// property and never creates. Only a creation stamped after the delete (the same uniqueID
/// created again, by an app whose IDs come from content, say) brings the uniqueID back, with the
/// values that creation wrote.
///
/// Every property a record knows has its own stamp: a creation stamps all of them. (A replica
/// keeps stamps without values, its values being its rows, and stores a stamp equal to the
/// creation's as absent; it fills them in again before merging.)
public struct SyncRecord: Codable, Sendable, Hashable {
    public var created: SyncStamp?
    public var deleted: SyncStamp?
    public var stamps: [String: SyncStamp]
    public var values: [String: SyncValue]

    public init(created: SyncStamp? = nil, deleted: SyncStamp? = nil, stamps: [String: SyncStamp] = [:], values: [String: SyncValue] = [:]) {
        self.created = created
        self.deleted = deleted
        self.stamps = stamps
        self.values = values
    }

    /// Whether the object exists: created, and not deleted since.
    public var exists: Bool {
        guard let created else { return false }
        guard let deleted else { return true }
        return created > deleted
    }

    /// The stamp `property` was last set at.
    public func stamp(of property: String) -> SyncStamp? {
        stamps[property]
    }

    /// Takes from `incoming` whatever was stamped later than what this record holds, and says
    /// what it took.
    @discardableResult
    public mutating func merge(_ incoming: SyncRecord) -> SyncMergeOutcome {
        var outcome = SyncMergeOutcome(existed: exists)
        if let stamp = incoming.created, created.map({ stamp > $0 }) ?? true {
            created = stamp
            outcome.tookCreation = true
        }
        if let stamp = incoming.deleted, deleted.map({ stamp > $0 }) ?? true {
            deleted = stamp
            outcome.tookDeletion = true
        }
        for (property, stamp) in incoming.stamps {
            guard self.stamp(of: property).map({ stamp > $0 }) ?? true else { continue }
            stamps[property] = stamp
            if let value = incoming.values[property] { values[property] = value }
            outcome.tookProperties.append(property)
        }
        outcome.tookProperties.sort()
        outcome.exists = exists
        return outcome
    }

    /// The latest stamp anywhere in the record: a replica's clock moves past it on receiving it.
    public var latestStamp: SyncStamp? {
        ([created, deleted].compactMap { $0 } + stamps.values).max()
    }
}

/// What ``SyncRecord/merge(_:)`` took from the incoming record.
public struct SyncMergeOutcome: Sendable, Equatable {
    /// Whether the object existed before the merge.
    public var existed: Bool
    /// Whether it exists after.
    public var exists = false
    public var tookCreation = false
    public var tookDeletion = false
    /// The properties whose incoming values won, sorted by name.
    public var tookProperties: [String] = []

    init(existed: Bool) {
        self.existed = existed
    }

    /// Whether the merge changed anything.
    public var changedAnything: Bool { tookCreation || tookDeletion || !tookProperties.isEmpty }
}
