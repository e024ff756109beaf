import Foundation

/// A 64-bit hash of a row's column values as its type encodes them: what the database queue keeps
/// of a row whose instance does not mark its changes, in place of a copy of the values (see
/// ``RowSnapshot``). Two rows with equal values (as `SQLValue`'s `==` has it) hash the same; rows
/// that differ hash the same only by a chance of one in 2⁶⁴.
///
/// Hashed with the process's random seed: never stored, never compared across processes.
struct RowHash: Hashable, Sendable {
    let bits: UInt64

    init(bits: UInt64) {
        self.bits = bits
    }

    /// The hash of `values`, the columns in the layout's order.
    init(of values: some Collection<SQLValue>) {
        var hasher = Hasher()
        hasher.combine(values.count)
        for value in values { Self.combine(value, into: &hasher) }
        bits = UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// Texts and reals hash as `==` compares them (canonically equivalent texts alike, 0.0 as
    /// -0.0); a blob over all its bytes, since `Data`'s own hash looks only at the first few.
    private static func combine(_ value: SQLValue, into hasher: inout Hasher) {
        switch value {
        case .null:
            hasher.combine(0 as UInt8)
        case .integer(let integer):
            hasher.combine(1 as UInt8)
            hasher.combine(integer)
        case .real(let real):
            hasher.combine(2 as UInt8)
            hasher.combine(real)
        case .text(let text):
            hasher.combine(3 as UInt8)
            hasher.combine(text)
        case .blob(let data):
            hasher.combine(4 as UInt8)
            hasher.combine(data.count)
            data.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}
