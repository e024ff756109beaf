extension String {
    /// The string without leading and trailing Unicode whitespace and newlines.
    ///
    /// Cheaper than `trimmingCharacters(in:)`, which bridges through NSString on
    /// Linux: strings that begin and end with a visible ASCII character (the
    /// common case) are returned without any copying.
    var trimmedWhitespace: String {
        let bytes = utf8
        guard let first = bytes.first, let last = bytes.last else { return self }
        if Self.isVisibleASCII(first), Self.isVisibleASCII(last) { return self }
        let scalars = unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, scalars[start].properties.isWhitespace {
            start = scalars.index(after: start)
        }
        while end > start, scalars[scalars.index(before: end)].properties.isWhitespace {
            end = scalars.index(before: end)
        }
        return String(scalars[start..<end])
    }

    /// The trimmed string, or `nil` when nothing is left.
    var trimmedNonEmpty: String? {
        let trimmed = trimmedWhitespace
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func isVisibleASCII(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }
}
