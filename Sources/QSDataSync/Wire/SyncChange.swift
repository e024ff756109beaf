/// What changed in objects of one table, sent as one group: every object named in `ids` had the
/// same things change, to the same values, at the same stamps. Marking 10,000 articles read is
/// one change with 10,000 IDs.
///
/// - `created`: the objects were created at this stamp, and `values` holds every property the
///   creating app's model has (one whose model has fewer names fewer; those it leaves out it did
///   not set).
/// - `deleted`: the objects were deleted at this stamp.
/// - `values` and `stamps`: properties set, each with the stamp it was set at. A property of
///   `values` missing from `stamps` was set at `created` (so a creation needs no stamps of its
///   own). A to-many relationship travels as two parts per child (see ``SyncListPart``).
public struct SyncChange: Codable, Sendable, Equatable {
    /// The table the objects are stored in, as the data model names it.
    public var table: String
    public var ids: [SyncID]
    public var created: SyncStamp?
    public var deleted: SyncStamp?
    public var values: [String: SyncValue]
    public var stamps: [String: SyncStamp]

    public init(
        table: String, ids: [SyncID], created: SyncStamp? = nil, deleted: SyncStamp? = nil,
        values: [String: SyncValue] = [:], stamps: [String: SyncStamp] = [:]
    ) {
        self.table = table
        self.ids = ids
        self.created = created
        self.deleted = deleted
        self.values = values
        self.stamps = stamps
    }

    private enum CodingKeys: String, CodingKey {
        case table, ids, created, deleted, values, stamps
    }

    /// `values` and `stamps` may be left out (a deletion has neither).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        table = try container.decode(String.self, forKey: .table)
        ids = try container.decode([SyncID].self, forKey: .ids)
        created = try container.decodeIfPresent(SyncStamp.self, forKey: .created)
        deleted = try container.decodeIfPresent(SyncStamp.self, forKey: .deleted)
        values = try container.decodeIfPresent([String: SyncValue].self, forKey: .values) ?? [:]
        stamps = try container.decodeIfPresent([String: SyncStamp].self, forKey: .stamps) ?? [:]
    }

    /// Leaves out what is empty or absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(table, forKey: .table)
        try container.encode(ids, forKey: .ids)
        try container.encodeIfPresent(created, forKey: .created)
        try container.encodeIfPresent(deleted, forKey: .deleted)
        if !values.isEmpty { try container.encode(values, forKey: .values) }
        if !stamps.isEmpty { try container.encode(stamps, forKey: .stamps) }
    }

    /// The change of one object, as a record to merge: every value with its stamp.
    public var record: SyncRecord {
        var all = stamps
        if let created {
            for name in values.keys where all[name] == nil { all[name] = created }
        }
        return SyncRecord(created: created, deleted: deleted, stamps: all, values: values)
    }

    /// Why a change can't be taken; nil when it can.
    public var problem: String? {
        if table.isEmpty { return "a change names no table" }
        if ids.isEmpty { return "a change of \(table) names no object" }
        if !Set(stamps.keys).isSubset(of: values.keys) { return "a change of \(table) has stamps for properties it gives no value" }
        if created == nil, values.keys.contains(where: { stamps[$0] == nil }) {
            return "a change of \(table) has values without stamps, and no creation stamp they could take"
        }
        if created == nil, deleted == nil, values.isEmpty { return "a change of \(table) changes nothing" }
        return nil
    }

    /// Groups the records of one table by what they hold, so that objects that changed alike
    /// travel as one change. The groups come in the order of their first object in `records`.
    public static func grouping(_ records: [(id: SyncID, record: SyncRecord)], table: String) -> [SyncChange] {
        var changes: [SyncChange] = []
        var indexByRecord: [SyncRecord: Int] = [:]
        for (id, record) in records {
            if let index = indexByRecord[record] {
                changes[index].ids.append(id)
            } else {
                indexByRecord[record] = changes.count
                // Stamps equal to the creation's go without saying.
                changes.append(SyncChange(
                    table: table, ids: [id], created: record.created, deleted: record.deleted,
                    values: record.values, stamps: record.stamps.filter { $0.value != record.created }))
            }
        }
        return changes
    }
}
