/// The columns of held instances that their objects marked (see ``QSChangeTrackingObject``) and
/// handed to saves that have not committed yet, each with the stamp of the save that took it: a
/// read of another writer's change made before that save wrote them leaves them as the app set
/// them.
///
/// One list, in stamp order, of every column a save took, with its row: a save adds its columns
/// at the end and its commit drops them from the front, so neither looks anything up. (A batch of
/// 10,000 saves of one object each notes and commits 10,000 times.) A column taken again by a
/// later save is listed again, so it stays in flight until the last save to take it commits.
/// Only a merge of another writer's change asks which columns of a row are in flight; it asks
/// for many rows in turn, so the list is indexed by row once, when first asked after a change.
struct ColumnsMarkedInFlight {
    private struct Taken {
        let stamp: UInt64
        let id: QSAnyID
        let column: Int
    }

    /// Oldest stamp first; the entries before `firstLeft` are forgotten already.
    private var taken: [Taken] = []
    private var firstLeft = 0
    /// The columns in flight by row, each once, made from `taken` when first asked for; nil once
    /// `taken` changes.
    private var columnsByID: [QSAnyID: [Int]]?

    /// Past this many, storage left empty is let go rather than kept for the next saves.
    private static let capacityKeptWhenEmpty = 1_024

    var isEmpty: Bool { firstLeft == taken.count }

    /// The columns of the row `id` that saves not committed yet are writing, each once.
    mutating func columns(of id: QSAnyID) -> [Int] {
        guard !isEmpty else { return [] }
        if columnsByID == nil { columnsByID = index() }
        return columnsByID?[id] ?? []
    }

    private func index() -> [QSAnyID: [Int]] {
        var columnsByID: [QSAnyID: [Int]] = [:]
        for entry in taken[firstLeft...] where columnsByID[entry.id]?.contains(entry.column) != true {
            columnsByID[entry.id, default: []].append(entry.column)
        }
        return columnsByID
    }

    /// The save `stamp` took `columns` of the row `id`.
    mutating func note(_ columns: [Int], of id: QSAnyID, stamp: UInt64) {
        guard !columns.isEmpty else { return }
        columnsByID = nil
        var position = insertionPosition(of: stamp)
        for column in columns {
            if position == taken.count {
                taken.append(Taken(stamp: stamp, id: id, column: column))
            } else {
                taken.insert(Taken(stamp: stamp, id: id, column: column), at: position)
            }
            position += 1
        }
    }

    /// Where entries of the save `stamp` go: after every entry of a save up to it. Saves take
    /// their marks in stamp order (every write first finishes encoding any large save still being
    /// encoded: see `QSStore.beginWrite`), so that is nearly always the end; a binary search keeps
    /// the list in order regardless.
    private func insertionPosition(of stamp: UInt64) -> Int {
        guard let last = taken.last, !isEmpty, last.stamp > stamp else { return taken.count }
        var low = firstLeft, high = taken.count
        while low < high {
            let middle = (low + high) / 2
            if taken[middle].stamp <= stamp { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The save `stamp` committed: what it and earlier saves took is written.
    mutating func forget(upTo stamp: UInt64) {
        let before = firstLeft
        while firstLeft < taken.count, taken[firstLeft].stamp <= stamp { firstLeft += 1 }
        guard firstLeft != before else { return }
        columnsByID = nil
        if isEmpty {
            taken.removeAll(keepingCapacity: taken.capacity <= Self.capacityKeptWhenEmpty)
            firstLeft = 0
        } else if firstLeft > taken.count / 2 {
            taken.removeFirst(firstLeft)
            firstLeft = 0
        }
    }

    /// Forgets everything: every write has settled.
    mutating func removeAll() {
        taken = []
        firstLeft = 0
        columnsByID = nil
    }
}
