import Foundation
import WireDates

/// One element of a `tags` request body. Unknown keys are ignored.
struct WireTag: Decodable {
    var uniqueID: String?
    var name: String?
    var nameModificationDate: String?

    /// The tag with its uniqueID recomputed from its name, or nil when the
    /// name is missing or normalises to nothing. A missing or unparseable date is the old date.
    /// - Throws: ``APIError/badRequest(_:)`` for a name longer than ``TagName/maximumLength``.
    func syncTag() throws(APIError) -> SyncTag? {
        guard let name else { return nil }
        let normalized = TagName.normalized(name)
        guard !normalized.isEmpty else { return nil }
        try TagName.checkLength(normalized)
        return SyncTag(
            uniqueID: TagName.uniqueID(forNormalizedName: normalized),
            name: normalized,
            nameModificationDate: nameModificationDate.flatMap(WireDate.milliseconds(from:)) ?? WireDate.oldDate)
    }
}

/// One element of a `tags` response: exactly `uniqueID`, `name`, `nameModificationDate`.
struct WireTagResponse: Encodable {
    var uniqueID: String
    var name: String
    var nameModificationDate: String

    init(_ tag: SyncTag) {
        uniqueID = tag.uniqueID
        name = tag.name
        nameModificationDate = WireDate.string(from: tag.nameModificationDate)
    }
}

/// Tag-name normalisation and uniqueID derivation, exactly as the client does it.
enum TagName {
    /// Trim whitespace and newlines, turn tab/CR/LF into spaces, collapse double spaces.
    static func normalized(_ name: String) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        var result = String(
            String.UnicodeScalarView(
                trimmed.unicodeScalars.map { scalar in
                    scalar == "\t" || scalar == "\r" || scalar == "\n" ? " " : scalar
                }))
        while result.contains("  ") {
            result = result.replacingOccurrences(of: "  ", with: " ")
        }
        return result
    }

    /// The longest tag name accepted, in characters after normalisation, as the client limits it.
    static let maximumLength = 256

    /// - Throws: ``APIError/badRequest(_:)`` for a normalised name longer than ``maximumLength``.
    static func checkLength(_ normalized: String) throws(APIError) {
        guard normalized.count <= maximumLength else {
            throw .badRequest("a tag name is longer than \(maximumLength) characters")
        }
    }

    /// The locale-independent lower-casing of a normalised name.
    static func uniqueID(forNormalizedName name: String) -> String {
        name.lowercased()
    }
}
