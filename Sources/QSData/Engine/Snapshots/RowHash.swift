import Foundation

/// A 64-bit hash of a row's column values as its type encodes them: what the database queue keeps
/// of a row whose instance does not mark its changes, in place of a copy of the values (see
/// ``RowSnapshot``). Rows whose values are the same, byte for byte, hash the same; rows that
/// differ hash the same only by a chance of about one in 2⁶⁴.
///
/// A text is hashed by its UTF-8 bytes, not as `==` compares texts: two canonically equivalent
/// texts spelled with different bytes hash apart. Such a row is then read and compared as
/// `SQLValue`s, which finds no column to write, so nothing is lost but a read. A blob is hashed
/// over all its bytes (`Data`'s own hash looks only at the first few).
///
/// Each value costs one 64-bit multiply, and a text or blob one more for every eight bytes: a
/// save of many unchanged rows hashes each, and `Hasher`'s SipHash cost about six times as much
/// (10,000 rows of three columns: 6.5 M instructions against 1.0 M). The multiply-and-fold mixing
/// is the one wyhash uses. Seeded at random once a process
/// (from `Hasher`'s seed): never stored, never compared across processes.
struct RowHash: Hashable, Sendable {
    let bits: UInt64

    init(bits: UInt64) {
        self.bits = bits
    }

    /// The hash of `values`, the columns in the layout's order.
    init(of values: some Collection<SQLValue>) {
        var state = Self.seed ^ UInt64(values.count)
        for value in values { Self.combine(value, into: &state) }
        bits = Self.mix(state, Self.finalKey)
    }

    /// Each kind of value mixes in with a key of its own, so that NULL, 0, 0.0 and "" differ.
    private static func combine(_ value: SQLValue, into state: inout UInt64) {
        switch value {
        case .null:
            state = mix(state, nullKey)
        case .integer(let integer):
            state = mix(state ^ UInt64(bitPattern: integer), integerKey)
        case .real(let real):
            // 0.0 and -0.0 are equal values, and hash alike.
            state = mix(state ^ (real == 0 ? 0 : real.bitPattern), realKey)
        case .text(var text):
            text.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0), key: textKey, into: &state) }
        case .blob(let data):
            data.withUnsafeBytes { combine(bytes: $0, key: blobKey, into: &state) }
        }
    }

    /// The byte count first, then the bytes eight at a time, the last few padded with zeros.
    private static func combine(bytes: UnsafeRawBufferPointer, key: UInt64, into state: inout UInt64) {
        state = mix(state ^ UInt64(bytes.count), key)
        var offset = 0
        while offset + 8 <= bytes.count {
            state = mix(state ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self), bytesKey)
            offset += 8
        }
        guard offset < bytes.count else { return }
        var tail: UInt64 = 0
        for index in offset ..< bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
        state = mix(state ^ tail, bytesKey)
    }

    /// The high and low halves of the full product, folded together.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    private static let seed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0 as UInt8)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }()

    // Odd constants with about half their bits set, as wyhash's.
    private static let nullKey: UInt64 = 0xa076_1d64_78bd_642f
    private static let integerKey: UInt64 = 0xe703_7ed1_a0b4_28db
    private static let realKey: UInt64 = 0x8ebc_6af0_9c88_c6e3
    private static let textKey: UInt64 = 0x5899_65cc_7537_4cc3
    private static let blobKey: UInt64 = 0x1d8e_4e27_c47d_124f
    private static let bytesKey: UInt64 = 0xeb44_acca_b455_d165
    private static let finalKey: UInt64 = 0x9e37_79b9_7f4a_7c15
}
