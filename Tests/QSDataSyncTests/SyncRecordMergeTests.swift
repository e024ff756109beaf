import QSDataSync
import Testing

/// The one merge function of the protocol: per-property last writer wins, deletes win over
/// edits, and the result does not depend on order or repetition.
struct SyncRecordMergeTests {
    let a = SyncReplicaID(text: "000000000000000a")!
    let b = SyncReplicaID(text: "000000000000000b")!

    func stamp(_ milliseconds: Int64, _ counter: Int = 0, _ replica: SyncReplicaID? = nil) -> SyncStamp {
        SyncStamp(milliseconds: milliseconds, counter: counter, replica: replica ?? a)
    }

    @Test func stampsOrderByTimeThenCounterThenReplica() {
        #expect(stamp(1, 5) < stamp(2, 0))
        #expect(stamp(2, 0) < stamp(2, 1))
        #expect(stamp(2, 1, a) < stamp(2, 1, b))
        #expect(SyncStamp(text: stamp(0x18c2e5f7a10, 3, b).text) == stamp(0x18c2e5f7a10, 3, b))
        #expect(stamp(0x18c2e5f7a10, 3, b).text == "018c2e5f7a10-0003-000000000000000b")
        #expect(SyncStamp(text: "018C2E5F7A10-0003-000000000000000b") == nil)
        #expect(SyncStamp(text: "18c2e5f7a10-0003-000000000000000b") == nil)
        #expect(SyncStamp(text: "") == nil)
    }

    @Test func laterPropertyStampWinsAndEachPropertyIsSeparate() {
        var held = SyncRecord(created: stamp(1), stamps: ["title": stamp(1), "body": stamp(1)], values: ["title": .text("t"), "body": .text("b")])
        let titleEdit = SyncRecord(stamps: ["title": stamp(5, 0, b)], values: ["title": .text("T2")])
        let olderBodyEdit = SyncRecord(stamps: ["body": stamp(0)], values: ["body": .text("old")])
        #expect(held.merge(titleEdit).tookProperties == ["title"])
        #expect(held.merge(olderBodyEdit).changedAnything == false)
        #expect(held.values == ["title": .text("T2"), "body": .text("b")])
    }

    @Test func deleteWinsOverEditsBeforeAndAfterIt() {
        var held = SyncRecord(created: stamp(1), stamps: ["read": stamp(1)], values: ["read": .integer(0)])
        let outcome = held.merge(SyncRecord(deleted: stamp(10)))
        #expect(outcome.existed && !outcome.exists && outcome.tookDeletion)
        held.merge(SyncRecord(stamps: ["read": stamp(20, 0, b)], values: ["read": .integer(1)]))
        #expect(!held.exists)
        held.merge(SyncRecord(created: stamp(30, 0, b), stamps: ["read": stamp(30, 0, b)], values: ["read": .integer(0)]))
        #expect(held.exists, "a creation stamped after the delete brings the uniqueID back")
    }

    @Test func mergeIsOrderFreeAndIdempotent() {
        let records = [
            SyncRecord(created: stamp(1), stamps: ["x": stamp(1), "y": stamp(1)], values: ["x": .integer(1), "y": .integer(1)]),
            SyncRecord(stamps: ["x": stamp(3, 0, b)], values: ["x": .integer(3)]),
            SyncRecord(stamps: ["x": stamp(3, 0, a), "y": stamp(4)], values: ["x": .integer(4), "y": .integer(4)]),
            SyncRecord(deleted: stamp(2)),
            SyncRecord(created: stamp(5, 1, b), stamps: ["x": stamp(5, 1, b), "y": stamp(5, 1, b)], values: ["x": .integer(5), "y": .null]),
        ]
        var reference = SyncRecord()
        for record in records { reference.merge(record) }
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            var merged = SyncRecord()
            for record in (records + records.prefix(2)).shuffled(using: &generator) { merged.merge(record) }
            #expect(merged == reference)
        }
        #expect(reference.values == ["x": .integer(5), "y": .null] && reference.exists)
    }

    @Test func changesGroupObjectsThatChangedAlike() {
        let read = SyncRecord(stamps: ["read": stamp(9)], values: ["read": .integer(1)])
        let records = (0..<10_000).map { (id: SyncID.string("a\($0)"), record: read) }
            + [(id: SyncID.string("z"), record: SyncRecord(deleted: stamp(9)))]
        let changes = SyncChange.grouping(records, table: "articles")
        #expect(changes.count == 2)
        #expect(changes[0].ids.count == 10_000 && changes[0].values == ["read": .integer(1)])
        #expect(changes[1].ids == [.string("z")] && changes[1].deleted == stamp(9))
    }
}

/// A small seeded generator (SplitMix64), so a shuffled test repeats.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
