@testable import QSData
import Testing

/// The table both owners keep their held instances in, checked against a dictionary through
/// seeded runs of adds, removals, sweeps and rebuilds. Integer keys are kept as plain integers
/// until a text key arrives; the runs cover tables of integer keys, of text keys, and of integer
/// keys that are given a text key part of the way through.
@Suite struct IDTableTests {
    @Test(arguments: [KeyKinds.integers, .text, .textArrivingLate], [1, 2, 3])
    func aTableFindsWhatADictionaryHolds(kinds: KeyKinds, seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var table = IDTable<Int>()
        var model: [QSAnyID: Int] = [:]
        for step in 0 ..< 4_000 {
            let id = kinds.id(Int.random(in: 0 ..< 600, using: &generator), step: step)
            switch Int.random(in: 0 ..< 10, using: &generator) {
            case 0 ..< 5:
                let (position, isNew) = table.position(adding: id) { step }
                #expect(isNew == (model[id] == nil))
                if isNew { model[id] = step }
                #expect(table.update(at: position) { $0 } == model[id])
            case 5 ..< 8:
                #expect(table.remove(id) == model.removeValue(forKey: id))
            case 8:
                // Entries added at an odd step are "dead".
                table.sweep(afterAdding: 3) { $0 % 2 == 1 }
                model = model.filter { id, _ in table.position(of: id) != nil }
            default:
                table.keepOnly { $0 % 3 != 0 }
                model = model.filter { $0.value % 3 != 0 }
            }
            #expect(table.count == model.count)
        }
        #expect(Set(table.allKeys) == Set(model.keys))
        for (id, value) in model {
            let position = table.position(of: id)
            #expect(position.map { table.update(at: $0) { $0 } } == value)
        }
        #expect(table.position(of: kinds.id(10_000, step: 4_000)) == nil)
    }

    /// A fetch hashes each row's ID once, on the queue, and the main actor's table uses that hash:
    /// every table must hash a key alike.
    @Test(arguments: [QSAnyID.integer(42), .string("a text ID")])
    func aKeyHashedOnceIsFoundInEveryTable(id: QSAnyID) {
        var first = IDTable<Int>()
        var second = IDTable<Int>()
        #expect(first.hash(of: id) == second.hash(of: id))
        for number in 100 ..< 150 { _ = second.position(adding: .integer(Int64(number))) { number } }
        let hash = IDHashing().hash(of: id)
        _ = first.position(adding: id, hash: hash) { 1 }
        _ = second.position(adding: id, hash: hash) { 2 }
        // Grown and thinned after the handed hash was used, each table still finds the key by
        // the hash it works out itself.
        for number in 1_000 ..< 1_400 { _ = second.position(adding: .integer(Int64(number))) { number } }
        for number in 100 ..< 150 { second.remove(.integer(Int64(number))) }
        #expect(first.position(of: id).map { first.update(at: $0) { $0 } } == 1)
        #expect(second.position(of: id).map { second.update(at: $0) { $0 } } == 2)
        #expect(second.position(adding: id) { 3 }.isNew == false)
        #expect(second.count == 401)
    }

    @Test func aTextKeyAfterIntegerKeysKeepsEveryIntegerKey() {
        var table = IDTable<String>()
        for number in 0 ..< 100 { _ = table.position(adding: .integer(Int64(number))) { "n\(number)" } }
        _ = table.position(adding: .string("42")) { "text" }
        #expect(table.count == 101)
        #expect(table.position(of: .integer(42)).map { table.update(at: $0) { $0 } } == "n42")
        #expect(table.position(of: .string("42")).map { table.update(at: $0) { $0 } } == "text")
        #expect(table.allKeys.prefix(3) == [.integer(0), .integer(1), .integer(2)])
        #expect(table.allKeys.last == .string("42"))
        table.remove(.integer(0))
        #expect(table.position(of: .string("42")).map { table.update(at: $0) { $0 } } == "text")
        #expect(table.position(of: .integer(0)) == nil)
    }

    @Test func anIntegerIsNeverFoundUnderTheTextOfItsDigits() {
        var table = IDTable<Int>()
        _ = table.position(adding: .integer(7)) { 7 }
        #expect(table.position(of: .string("7")) == nil)
        #expect(table.remove(.string("7")) == nil)
        #expect(table.count == 1)
    }

    enum KeyKinds: CustomTestStringConvertible {
        case integers, text, textArrivingLate

        func id(_ number: Int, step: Int) -> QSAnyID {
            switch self {
            case .integers: return .integer(Int64(number))
            case .text: return .string("id-\(number)")
            case .textArrivingLate: return step > 1_500 && number % 2 == 0 ? .string("id-\(number)") : .integer(Int64(number))
            }
        }

        var testDescription: String {
            switch self {
            case .integers: return "integer keys"
            case .text: return "text keys"
            case .textArrivingLate: return "integer keys, then text keys too"
            }
        }
    }
}
