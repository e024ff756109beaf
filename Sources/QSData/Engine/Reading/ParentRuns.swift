/// Where each parent's run of rows lies in a flat list of lookup rows, which arrive grouped by
/// parent.
///
/// A fetch asks for the parents' runs in the order it reads the parents' own rows, which is
/// usually the order the lookup rows came in. So each reader keeps a cursor, and the next run is
/// found with one comparison; no hashing at all in the common case. A parent asked for out of
/// that order (another `ORDER BY`, or a parent without rows) is found through an index by
/// parent, built the first time it is needed.
///
/// Used by one fetch at a time, on the database queue. Made once the runs are known (see
/// ``Builder``): its lists are constants, so reading them costs no exclusivity checks.
@usableFromInline
final class ParentRuns {
    /// Each parent once, in the order its run arrived.
    private let parents: [QSAnyID]
    /// Where each run starts in the flat list, and where the list ends (one more than `parents`).
    private let starts: [Int]
    /// Run number by parent, built on first use.
    private var runByParent: [QSAnyID: Int]?

    private init(parents: [QSAnyID], starts: [Int]) {
        self.parents = parents
        self.starts = starts
    }

    /// One parent whose rows are `range` of the flat list.
    convenience init(parent: QSAnyID, range: Range<Int>) {
        self.init(parents: [parent], starts: [range.lowerBound, range.upperBound])
    }

    /// Collects the runs as the lookup rows arrive.
    struct Builder {
        private var parents: [QSAnyID] = []
        private var starts: [Int] = [0]

        /// Records that `parent`'s run starts at `start`, ending the previous run there.
        mutating func beginRun(of parent: QSAnyID, at start: Int) {
            parents.append(parent)
            starts[starts.count - 1] = start
            starts.append(start)
        }

        /// The runs, the last ending at `end`.
        func finished(at end: Int) -> ParentRuns {
            var starts = starts
            starts[starts.count - 1] = end
            return ParentRuns(parents: parents, starts: starts)
        }
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
