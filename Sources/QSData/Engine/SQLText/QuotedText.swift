/// `text` between two `mark`s, each `mark` inside it doubled: how SQL writes an identifier
/// (`"`) or a string literal (`'`), and how FTS5 writes a phrase (`"`).
///
/// Written on the UTF-8 bytes, which is safe because the mark is ASCII: Foundation's
/// `replacingOccurrences` took most of a one-word search's time on the main actor.
func enclosed(_ text: some StringProtocol, in mark: Unicode.Scalar) -> String {
    precondition(mark.isASCII, "a quote mark is ASCII")
    let markByte = UInt8(mark.value)
    let ends = String(mark)
    guard text.utf8.contains(markByte) else { return ends + String(text) + ends }
    var bytes: [UInt8] = [markByte]
    bytes.reserveCapacity(text.utf8.count + 4)
    for byte in text.utf8 {
        bytes.append(byte)
        if byte == markByte { bytes.append(byte) }
    }
    bytes.append(markByte)
    return String(decoding: bytes, as: UTF8.self)
}

/// Quotes an SQL identifier (table or column name).
func quoted(_ identifier: String) -> String {
    enclosed(identifier, in: "\"")
}
