/// The columns of held instances that their objects marked (see ``QSChangeTrackingObject``) and
/// handed to saves that have not committed yet, each with the stamp of the last save to take it:
/// a read of another writer's change made before that save wrote them leaves them as the app set
/// them.
///
/// Each save's commit forgets what it and earlier saves took. It finds those rows in a list kept
/// in stamp order, so that forgetting costs only the rows forgotten: a batch of 10,000 saves of
/// one object each commits 10,000 times, and going through every row still in flight at each
/// commit made that batch quadratic.
struct ColumnsMarkedInFlight {
    private var columnsByID: [QSAnyID: [(column: Int, stamp: UInt64)]] = [:]
    /// Every time a row's columns were taken, oldest stamp first; entries before `firstLeft`
    /// are forgotten already.
    private var takenRows: [(stamp: UInt64, id: QSAnyID)] = []
    private var firstLeft = 0

    var isEmpty: Bool { columnsByID.isEmpty }

    /// The columns of the row `id` that saves not committed yet are writing.
    func columns(of id: QSAnyID) -> [Int] {
        columnsByID.isEmpty ? [] : columnsByID[id]?.map(\.column) ?? []
    }

    /// The save `stamp` took `columns` of the row `id`.
    mutating func note(_ columns: [Int], of id: QSAnyID, stamp: UInt64) {
        let earlier = (columnsByID[id] ?? []).filter { !columns.contains($0.column) }
        columnsByID[id] = earlier + columns.map { ($0, stamp) }
        // Saves take their marks in stamp order, but for a large save's later chunks, taken
        // after smaller saves that came behind it.
        var position = takenRows.endIndex
        while position > firstLeft, takenRows[position - 1].stamp > stamp { position -= 1 }
        takenRows.insert((stamp, id), at: position)
    }

    /// The save `stamp` committed: what it and earlier saves took is written.
    mutating func forget(upTo stamp: UInt64) {
        while firstLeft < takenRows.endIndex, takenRows[firstLeft].stamp <= stamp {
            let id = takenRows[firstLeft].id
            firstLeft += 1
            guard let columns = columnsByID[id] else { continue }
            let later = columns.filter { $0.stamp > stamp }
            columnsByID[id] = later.isEmpty ? nil : later
        }
        if firstLeft == takenRows.endIndex {
            takenRows.removeAll(keepingCapacity: true)
            firstLeft = 0
        } else if firstLeft > takenRows.count / 2 {
            takenRows.removeFirst(firstLeft)
            firstLeft = 0
        }
    }

    /// Forgets everything: every write has settled.
    mutating func removeAll() {
        columnsByID = [:]
        takenRows = []
        firstLeft = 0
    }
}
