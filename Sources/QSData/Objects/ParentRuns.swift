/// Where each parent's run of rows lies in a flat list of lookup rows, which arrive grouped by
/// parent.
///
/// A fetch asks for the parents' runs in the order it reads the parents' own rows, which is
/// usually the order the lookup rows came in. So each reader keeps a cursor, and the next run is
/// found with one comparison; no hashing at all in the common case. A parent asked for out of
/// that order (another `ORDER BY`, or a parent without rows) is found through an index by
/// parent, built the first time it is needed.
///
/// Used by one fetch at a time, on the database queue.
@usableFromInline
final class ParentRuns {
    /// Each parent once, in the order its run arrived.
    private var parents: [QSAnyID] = []
    /// Where each run starts in the flat list, and where the list ends (one more than `parents`).
    private var starts: [Int] = [0]
    /// Run number by parent, built on first use.
    private var runByParent: [QSAnyID: Int]?

    init() {}

    /// One parent whose rows are `range` of the flat list.
    convenience init(parent: QSAnyID, range: Range<Int>) {
        self.init()
        parents = [parent]
        starts = [range.lowerBound, range.upperBound]
    }

    /// Records that `parent`'s run starts at `start`, ending the previous run there.
    func beginRun(of parent: QSAnyID, at start: Int) {
        parents.append(parent)
        starts[starts.count - 1] = start
        starts.append(start)
    }

    /// Ends the last run at `end`.
    func finish(at end: Int) {
        starts[starts.count - 1] = end
    }

    /// Where `parent`'s rows lie, or nil when it has none. `cursor` is the reader's own
    /// position: start it at 0 and pass it back each time.
    @usableFromInline
    func range(of parent: QSAnyID, cursor: inout Int) -> Range<Int>? {
        let run: Int
        if cursor < parents.count, parents[cursor] == parent {
            run = cursor
        } else if let found = index()[parent] {
            run = found
        } else {
            return nil
        }
        cursor = run + 1
        return starts[run]..<starts[run + 1]
    }

    private func index() -> [QSAnyID: Int] {
        if let runByParent { return runByParent }
        var built: [QSAnyID: Int] = Dictionary(minimumCapacity: parents.count)
        for (run, parent) in parents.enumerated() { built[parent] = run }
        runByParent = built
        return built
    }
}
