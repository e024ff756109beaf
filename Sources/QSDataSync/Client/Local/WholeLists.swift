import QSData

/// Lists that are not in parts yet, turned into parts: a list that arrives whole (an `.ids`
/// value, from a replica or a server record older than list parts), and a list this replica
/// holds without parts (a file that synced before lists travelled in parts).
///
/// Either becomes what the whole list meant: the children it names listed, in its order, with
/// keys from ``SyncListPosition/wholeList(of:)``, and every other child taken out, all at the
/// list's stamp. Every replica turns the same list into the same parts.
struct WholeLists {
    private struct Whole {
        let list: String
        let children: [SyncID]
        let stamp: SyncStamp
    }

    /// The incoming record without its whole lists.
    private let base: SyncRecord
    private let wholes: [Whole]
    /// The relationships the incoming record changes, in parts or whole.
    let touched: [QSRelationshipDescription]

    init(incoming: SyncRecord, table: SyncedTable) {
        var base = incoming
        var wholes: [Whole] = []
        for (name, value) in incoming.values.sorted(by: { $0.key < $1.key }) {
            guard table.list(named: name) != nil else { continue }
            base.values[name] = nil
            base.stamps[name] = nil
            if case .ids(let children) = value, let stamp = incoming.stamps[name] {
                wholes.append(Whole(list: name, children: children, stamp: stamp))
            }
        }
        let inParts = Set(incoming.stamps.keys.compactMap { SyncListPart(name: $0)?.list })
        touched = table.lists.filter { list in inParts.contains(list.name) || wholes.contains { $0.list == list.name } }
        self.base = base
        self.wholes = wholes
    }

    /// The incoming record to merge into `held`: each whole list as the parts that make `held`
    /// list what it names.
    func record(for held: SyncRecord) -> SyncRecord {
        var record = base
        for whole in wholes {
            Self.set(whole.list, to: whole.children, was: held, in: &record, at: whole.stamp)
        }
        return record
    }

    /// Gives `saved`, the children a held list has in its lookup rows, list parts when the
    /// record has none for it, at the stamp the list was last set; returns the parts made.
    static func adopt(_ saved: [SyncID], as list: String, in record: inout SyncRecord) -> [SyncListPart] {
        guard !saved.isEmpty, let stamp = record.stamps[list] ?? record.created,
              !record.stamps.keys.contains(where: { SyncListPart(name: $0)?.list == list })
        else { return [] }
        return set(list, to: saved, was: record, in: &record, at: stamp)
    }

    @discardableResult
    private static func set(_ list: String, to children: [SyncID], was held: SyncRecord, in record: inout SyncRecord, at stamp: SyncStamp) -> [SyncListPart] {
        let named = Set(children)
        let edit = ListEdit(
            removed: ListItems.listed(list, in: held).map(\.child).filter { !named.contains($0) },
            added: children,
            positions: Dictionary(zip(children, SyncListPosition.wholeList(of: children.count)), uniquingKeysWith: { first, _ in first }))
        return record.apply(edit, to: list, at: stamp)
    }
}
