import Foundation
import VesperCore

/// A tag as the tags endpoint sends it: its name and the date the name last changed. The
/// uniqueID is always derived from the name, never trusted from the wire.
public struct VSSyncTag: Sendable, Equatable {
    public var name: String
    public var nameModificationDate: Date?

    public init(name: String, nameModificationDate: Date?) {
        self.name = name
        self.nameModificationDate = nameModificationDate
    }

    @MainActor public init(_ tag: VSTag) {
        self.init(name: tag.name, nameModificationDate: tag.nameModificationDate)
    }

    /// Reads a tag from the server. A missing, null or blank name is refused (the stock client
    /// skips such tags too); an unparseable date is "no date".
    public init(json: VSJSON) throws {
        guard case .object = json else { throw VSSyncObjectError.notAnObject(kind: "tag") }
        guard let name = json["name"]?.string, !VSTag.cleanedName(name).isEmpty,
              VSTag.cleanedName(name).count <= VSTag.maximumNameLength else {
            throw VSSyncObjectError.missingValue(kind: "tag", key: "name")
        }
        self.init(name: name, nameModificationDate: json["nameModificationDate"]?.string.flatMap(VSSyncDate.date(from:)))
    }

    /// The tag's uniqueID: the name, whitespace collapsed, lower-cased.
    public var uniqueID: String { VSTag.uniqueID(forName: name) }

    /// The upload form: uniqueID, name, and the date when there is one.
    public var json: VSJSON {
        var object: [String: VSJSON] = ["uniqueID": .string(uniqueID), "name": .string(name)]
        if let nameModificationDate { object["nameModificationDate"] = .string(VSSyncDate.string(from: nameModificationDate)) }
        return .object(object)
    }
}
