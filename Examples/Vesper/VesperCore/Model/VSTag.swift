import Foundation

// VSTag is generated from Vesper.plist. Its uniqueID is its name with runs of whitespace
// collapsed to one space and lower-cased, so "Ice Cream", "ice  cream" and "ICE CREAM" are one tag.
//
// Tags are few and small: the store caches all of them permanently and loads them when it opens,
// so every note holding a tag holds the same instance. A tag's name may change only in case (see
// ``VSDataController/userDidRenameTag(_:to:)``): any other change would be a different tag.
extension VSTag {
    /// A new tag named `name` (whitespace collapsed); nil when the name is blank.
    convenience init?(name: String, date: Date?) {
        let cleaned = VSTag.cleanedName(name)
        guard !cleaned.isEmpty else { return nil }
        self.init(uniqueID: cleaned.lowercased(), name: cleaned, nameModificationDate: date)
    }

    /// The name with leading and trailing whitespace removed and inner runs collapsed to one space.
    public static func cleanedName(_ name: String) -> String {
        name.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The longest tag name, in characters (after whitespace is collapsed). Longer names are
    /// refused when typed and when they arrive by sync; the sync server enforces the same limit.
    public static let maximumNameLength = 256

    /// The uniqueID of the tag named `name`.
    public static func uniqueID(forName name: String) -> String {
        cleanedName(name).lowercased()
    }
}
