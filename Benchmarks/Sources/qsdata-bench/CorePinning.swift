import CSQLiteBench

/// Runs every thread of the process on one core at a time, so that all the implementations timed
/// in a round of a fetch workload run on the same core.
///
/// The host this benchmark was tuned on (a virtual machine) slows one core at a time: raw sqlite3
/// alone, pinned to each core in turn, differed by 30–35% in some pairs of runs. Raw sqlite3 and
/// GRDB work on the calling thread, while QSData fetches on its database queue's thread, so left
/// to the scheduler the two can land on different cores, and a slowed core then shows up as a
/// slow ratio for one of them. Pinning each round, and moving to the next core for the next
/// round, compares them on the same core and still samples every core. Writes are not pinned
/// (see ``Harness/Threading``): there QSData's main actor and queue work side by side.
struct CorePinning {
    /// The cores the process was allowed when the benchmark started, in order.
    let cores: [Int]
    private let startingMask: [UInt]

    private static let wordBits = UInt.bitWidth

    /// The cores the process may run on now (all of them unless started under `taskset`).
    init() throws {
        var mask = [UInt](repeating: 0, count: Int(CSQLITEBENCH_CORE_MASK_WORDS))
        guard csqlitebench_allowed_cores(&mask) == 0 else {
            throw CorePinningError(description: "could not read which cores the process may run on")
        }
        startingMask = mask
        cores = (0..<(mask.count * Self.wordBits)).filter { core in
            mask[core / Self.wordBits] & (1 << UInt(core % Self.wordBits)) != 0
        }
        guard !cores.isEmpty else { throw CorePinningError(description: "the process may run on no core") }
    }

    /// Lets every thread run only on the core for round `round` (0 for the warm-up too): the
    /// allowed cores in turn.
    func pin(toCoreForRound round: Int) throws {
        let core = cores[round % cores.count]
        var mask = [UInt](repeating: 0, count: startingMask.count)
        mask[core / Self.wordBits] = 1 << UInt(core % Self.wordBits)
        try restrict(to: mask, what: "core \(core)")
    }

    /// Lets every thread run on the cores the process started with again.
    func release() throws {
        try restrict(to: startingMask, what: "its starting cores")
    }

    private func restrict(to mask: [UInt], what: String) throws {
        let refused = csqlitebench_restrict_all_threads(mask)
        guard refused == 0 else {
            throw CorePinningError(description: refused < 0
                ? "could not list the process's threads to pin them to \(what)"
                : "\(refused) threads refused to run on \(what) only")
        }
    }
}

struct CorePinningError: Error, CustomStringConvertible {
    let description: String
}
