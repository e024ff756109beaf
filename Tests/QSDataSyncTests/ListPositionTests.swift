import Foundation
import QSDataSync
import Testing

/// Position keys and list part names, on their own.
struct ListPositionTests {
    let a = SyncReplicaID(text: "3f2a9b7c1d0e4f55")!
    let b = SyncReplicaID(text: "9c01d2e3f4a5b6c7")!

    @Test func partNamesReadBack() {
        for part in [
            SyncListPart(list: "cards", child: .integer(17), kind: .membership),
            SyncListPart(list: "cards", child: .integer(-3), kind: .position),
            SyncListPart(list: "tags", child: .string("paris]\".position"), kind: .membership),
            SyncListPart(list: "tags", child: .string("a[b]"), kind: .position),
        ] {
            #expect(SyncListPart(name: part.name) == part, "\(part.name)")
        }
        #expect(SyncListPart(list: "cards", child: .integer(17), kind: .position).name == "cards[17].position")
        #expect(SyncListPart(list: "tags", child: .string("paris"), kind: .membership).name == "tags[\"paris\"]")
        for notAPart in ["title", "cards[", "cards[x]", "cards[17].size", "cards17]"] {
            #expect(SyncListPart(name: notAPart) == nil, "\(notAPart)")
        }
    }

    @Test func aRunFitsBetweenItsNeighboursInOrder() throws {
        let run = try #require(SyncListPosition.run(of: 70, between: "V", and: "W", replica: a))
        #expect(run.count == 70)
        #expect(run.allSatisfy { "V" < $0 && $0 < "W" })
        #expect(run == run.sorted())
        #expect(Set(run).count == 70)
        #expect(SyncListPosition.run(of: 1, between: "V", and: "V", replica: a) == nil)
        #expect(SyncListPosition.run(of: 1, between: "W", and: "V", replica: a) == nil)
        #expect(SyncListPosition.run(of: 1, between: "", and: "000", replica: a) == nil, "nothing sorts between nothing and 000 without being its prefix")
    }

    /// Random runs inserted by two replicas at random places: the keys stay in order, and every
    /// run stays whole, whatever was inserted around it later.
    @Test(arguments: 1...20)
    func runsInsertedAnywhereStayWholeAndInOrder(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed))
        var list: [(run: Int, key: String)] = []
        for run in 0..<60 {
            let place = Int(random.next() % UInt64(list.count + 1))
            let low = place > 0 ? list[place - 1].key : nil, high = place < list.count ? list[place].key : nil
            // A place inside a run splits it; count runs only from insertions at a run's edges.
            let count = 1 + Int(random.next() % 4)
            let keys = try #require(SyncListPosition.run(of: count, between: low, and: high, replica: run % 2 == 0 ? a : b))
            list.insert(contentsOf: keys.map { (run, $0) }, at: place)
        }
        #expect(list.map(\.key) == list.map(\.key).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(Set(list.map(\.key)).count == list.count)
    }

    /// Two replicas that each insert a run at the same place in one edit, knowing nothing of the
    /// other's: sorted together, each run is whole.
    @Test func concurrentRunsAtOnePlaceDoNotInterleave() throws {
        for (low, high) in [(nil, nil), ("V", nil), (nil, "V"), ("V", "X"), ("Vx", "Vy"), ("V", "V0001")] as [(String?, String?)] {
            let first = try #require(SyncListPosition.run(of: 3, between: low, and: high, replica: a))
            let second = try #require(SyncListPosition.run(of: 3, between: low, and: high, replica: b))
            let merged = (first.map { ("a", $0) } + second.map { ("b", $0) }).sorted { $0.1 < $1.1 }
            let owners = merged.map(\.0).joined()
            #expect(owners == "aaabbb" || owners == "bbbaaa", "\(String(describing: low))…\(String(describing: high)): \(owners)")
        }
    }

    @Test func appendingOneAtATimeGrowsKeysSlowly() throws {
        var last: String?
        for _ in 0..<2_000 {
            last = try #require(SyncListPosition.run(of: 1, between: last, and: nil, replica: a)).first
        }
        #expect(try #require(last).utf8.count < 100, "\(last?.utf8.count ?? 0)")
        var first: String?
        for _ in 0..<2_000 {
            first = try #require(SyncListPosition.run(of: 1, between: nil, and: first, replica: a)).first
        }
        #expect(try #require(first).utf8.count < 100, "\(first?.utf8.count ?? 0)")
    }

    @Test func wholeListKeysAreTheSameEverywhereAndInOrder() {
        let keys = SyncListPosition.wholeList(of: 100)
        #expect(keys == SyncListPosition.wholeList(of: 100))
        #expect(keys == keys.sorted() && keys.first == "0001")
    }
}
