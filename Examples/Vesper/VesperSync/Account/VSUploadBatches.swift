/// How large one notes upload may be: at most `notes` notes and, unless a single note is larger
/// by itself (it then goes alone), at most `bytes` bytes of JSON.
public struct VSUploadLimits: Equatable, Sendable {
    public var notes: Int
    public var bytes: Int

    /// 1,000 notes (the server takes 1,000) and 8 MB (the server takes 64 MB): every batch's
    /// response carries all the notes changed on the server since the same date, so fewer,
    /// larger batches move much less — 10,000 notes in batches of 1,000 bring 55,000 notes
    /// down, in batches of 200, 255,000 — while the byte bound keeps a batch of large notes
    /// well inside the server's body limit.
    public static let standard = VSUploadLimits(notes: 1_000, bytes: 8 << 20)

    public init(notes: Int, bytes: Int) {
        self.notes = max(1, notes)
        self.bytes = max(1, bytes)
    }
}

/// Splits an upload into consecutive batches within ``VSUploadLimits``.
enum VSUploadBatches {
    /// Consecutive index ranges over `sizes` (each element's bytes), in order, each within the
    /// limits; an element larger than the byte limit is a batch of its own.
    static func ranges(sizes: [Int], limits: VSUploadLimits) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        var bytes = 0
        for (index, size) in sizes.enumerated() {
            let count = index - start
            if count > 0 && (count == limits.notes || bytes + size > limits.bytes) {
                ranges.append(start..<index)
                start = index
                bytes = 0
            }
            bytes += size
        }
        if start < sizes.count { ranges.append(start..<sizes.count) }
        return ranges
    }
}
