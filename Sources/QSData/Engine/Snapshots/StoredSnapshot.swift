/// How a table of known rows (``KnownRowTable``) keeps a row's snapshot.
protocol StoredSnapshot {
    /// No snapshot.
    init()

    /// Keeps `snapshot`.
    init(_ snapshot: RowSnapshot)

    /// The snapshot kept, if any.
    var snapshot: RowSnapshot? { get }

    /// Whether a fetch in `epoch` can keep it for a new instance of the row.
    func isKept(in epoch: UInt64) -> Bool

    /// Its row's values changed in place (a bulk update, or another type's save on the same
    /// table): a hash of the whole row can't follow a change to some columns, so it is dropped.
    mutating func forgetValues()
}

/// The whole snapshot: the values' hash (or none, for instances that mark their changes), lookup
/// rows, epoch.
struct WholeSnapshot: StoredSnapshot {
    private var kept: RowSnapshot?

    init() {}

    init(_ snapshot: RowSnapshot) {
        kept = snapshot
    }

    var snapshot: RowSnapshot? { kept }

    func isKept(in epoch: UInt64) -> Bool {
        kept?.isKept(in: epoch) ?? false
    }

    mutating func forgetValues() {
        kept?.valuesHash = nil
    }
}

/// Only the epoch, for a type whose instances mark their changes and which has no
/// relationships: its snapshots hold no values and no lookup rows, so the epoch is all they say.
/// One word per row instead of three.
struct EpochOnlySnapshot: StoredSnapshot {
    /// The epoch + 1; 0 for no snapshot.
    private var epochAfter: UInt64 = 0

    init() {}

    init(_ snapshot: RowSnapshot) {
        epochAfter = snapshot.epoch + 1
    }

    var snapshot: RowSnapshot? {
        epochAfter == 0 ? nil : RowSnapshot(valuesHash: nil, lookups: [], epoch: epochAfter - 1)
    }

    func isKept(in epoch: UInt64) -> Bool {
        epochAfter == epoch + 1
    }

    mutating func forgetValues() {}
}

/// The epoch and the values' hash, for a type whose instances don't mark their changes and which
/// has no relationships: two words per row instead of three.
struct HashedSnapshot: StoredSnapshot {
    /// The epoch + 1 (0 for no snapshot), with ``hasHashBit`` set when `hashBits` is the values'
    /// hash.
    private var epochAfter: UInt64 = 0
    private var hashBits: UInt64 = 0

    private static let hasHashBit: UInt64 = 1 << 63

    init() {}

    init(_ snapshot: RowSnapshot) {
        epochAfter = snapshot.epoch + 1
        if let hash = snapshot.valuesHash {
            epochAfter |= Self.hasHashBit
            hashBits = hash.bits
        }
    }

    var snapshot: RowSnapshot? {
        guard epochAfter != 0 else { return nil }
        let valuesHash = epochAfter & Self.hasHashBit != 0 ? RowHash(bits: hashBits) : nil
        return RowSnapshot(valuesHash: valuesHash, lookups: [], epoch: (epochAfter & ~Self.hasHashBit) - 1)
    }

    func isKept(in epoch: UInt64) -> Bool {
        epochAfter & ~Self.hasHashBit == epoch + 1
    }

    mutating func forgetValues() {
        epochAfter &= ~Self.hasHashBit
    }
}
