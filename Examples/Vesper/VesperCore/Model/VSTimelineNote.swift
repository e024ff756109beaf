import Foundation
import QSData

/// The light view of a note the timeline lists: six columns of the notes table, no relationships.
///
/// An immutable value: when a note changes, the timeline fetches it again (the store's change
/// notifications name the changed uniqueIDs under both `VSNote` and `VSTimelineNote`).
public struct VSTimelineNote: QSDataObject, Equatable, Sendable {
    public let uniqueID: Int64
    public let truncatedText: String?
    public let links: [String]?
    public let thumbnailID: String?
    public let archived: Bool
    public let sortDate: Date

    public func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["truncatedText"] = truncatedText
        row["links"] = links
        row["thumbnailID"] = thumbnailID
        row["archived"] = archived
        row["sortDate"] = sortDate
    }
}

// In an extension, so that the struct keeps its memberwise initializer, which the row is read into.
extension VSTimelineNote {
    public init(row: QSRow) throws {
        self.init(
            uniqueID: try row["uniqueID"],
            truncatedText: try row["truncatedText"],
            links: try row["links"],
            thumbnailID: try row["thumbnailID"],
            archived: try row["archived"],
            sortDate: try row["sortDate"])
    }
}
