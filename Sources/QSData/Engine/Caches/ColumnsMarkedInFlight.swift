/// The columns of held instances that their objects marked (see ``QSChangeTrackingObject``) and
/// handed to saves that have not committed yet, each with the stamp of the last save to take it:
/// a read of another writer's change made before that save wrote them leaves them as the app set
/// them.
///
/// Each save's commit forgets what it and earlier saves took. It finds those rows in a list kept
/// in stamp order, so that forgetting costs only the rows forgotten: a batch of 10,000 saves of
/// one object each commits 10,000 times, and going through every row still in flight at each
/// commit made that batch quadratic. The list holds one entry per row a save took, not a list per
/// save: one allocation fewer for each save.
struct ColumnsMarkedInFlight {
    private var columnsByID: [QSAnyID: [(column: Int, stamp: UInt64)]] = [:]
    /// Each row a save took columns of, with the save's stamp, oldest first; the entries before
    /// `firstLeft` are forgotten already.
    private var rowsByStamp: [(stamp: UInt64, id: QSAnyID)] = []
    private var firstLeft = 0

    /// Past this many, storage left empty is let go rather than kept for the next saves.
    private static let capacityKeptWhenEmpty = 1_024

    var isEmpty: Bool { columnsByID.isEmpty }

    /// The columns of the row `id` that saves not committed yet are writing.
    func columns(of id: QSAnyID) -> [Int] {
        columnsByID.isEmpty ? [] : columnsByID[id]?.map(\.column) ?? []
    }

    /// The save `stamp` took `columns` of the row `id`. A column taken again keeps the highest
    /// stamp: it is in flight until the last save to take it commits.
    mutating func note(_ columns: [Int], of id: QSAnyID, stamp: UInt64) {
        guard !columns.isEmpty else { return }
        var taken = columnsByID[id] ?? []
        for column in columns {
            if let position = taken.firstIndex(where: { $0.column == column }) {
                taken[position].stamp = max(taken[position].stamp, stamp)
            } else {
                taken.append((column, stamp))
            }
        }
        columnsByID[id] = taken
        addRow(id, stamp: stamp)
    }

    /// Files `id` under `stamp`. Saves take their marks in stamp order (every write first
    /// finishes encoding any large save still being encoded: see `QSStore.beginWrite`), so the
    /// entry nearly always goes last; a binary search keeps the list in order regardless.
    private mutating func addRow(_ id: QSAnyID, stamp: UInt64) {
        guard let last = rowsByStamp.last, rowsByStamp.count > firstLeft, last.stamp > stamp else {
            rowsByStamp.append((stamp, id))
            return
        }
        var low = firstLeft, high = rowsByStamp.count
        while low < high {
            let middle = (low + high) / 2
            if rowsByStamp[middle].stamp <= stamp { low = middle + 1 } else { high = middle }
        }
        rowsByStamp.insert((stamp, id), at: low)
    }

    /// The save `stamp` committed: what it and earlier saves took is written.
    mutating func forget(upTo stamp: UInt64) {
        while firstLeft < rowsByStamp.count, rowsByStamp[firstLeft].stamp <= stamp {
            let id = rowsByStamp[firstLeft].id
            firstLeft += 1
            guard let columns = columnsByID[id] else { continue }
            let later = columns.filter { $0.stamp > stamp }
            columnsByID[id] = later.isEmpty ? nil : later
        }
        if firstLeft == rowsByStamp.count {
            // Every entry is forgotten, and with them every column.
            rowsByStamp.removeAll(keepingCapacity: rowsByStamp.capacity <= Self.capacityKeptWhenEmpty)
            if columnsByID.capacity > Self.capacityKeptWhenEmpty { columnsByID = [:] }
            firstLeft = 0
        } else if firstLeft > rowsByStamp.count / 2 {
            rowsByStamp.removeFirst(firstLeft)
            firstLeft = 0
        }
    }

    /// Forgets everything: every write has settled.
    mutating func removeAll() {
        columnsByID = [:]
        rowsByStamp = []
        firstLeft = 0
    }
}
