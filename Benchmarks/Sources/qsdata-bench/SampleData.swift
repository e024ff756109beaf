import Foundation

/// The data every implementation works on: plain values, generated deterministically, so that
/// raw sqlite3, GRDB and QSData read and write exactly the same rows.
struct NoteValues {
    let uniqueID: Int64
    let truncatedText: String?
    let links: [String]?
    let sortDate: Date
    let thumbnailID: String?
    let archived: Bool
    let text: String?
    let creationDate: Date
    let textModificationDate: Date?
    let sortDateModificationDate: Date?
    let archivedModificationDate: Date?
    let tagsModificationDate: Date?
    let attachmentsModificationDate: Date?
    let modificationDate: Date?
    /// Indexes into ``SampleData/tags``, in order.
    let tagIndexes: [Int]
    let attachment: AttachmentValues
}

struct TagValues {
    let uniqueID: String
    let name: String
    let nameModificationDate: Date?
}

struct AttachmentValues {
    let uniqueID: String
    let mimeType: String
    let height: Int64
    let width: Int64
}

struct ArticleValues {
    let uniqueID: Int64
    let feedID: String
    let title: String
    let url: String
    let datePublished: Date
    let read: Bool
    let starred: Bool
}

enum SampleData {
    static let tagCount = 50
    static let firstNoteID: Int64 = 1_000
    static let firstArticleID: Int64 = 1

    static let tags: [TagValues] = (0..<tagCount).map { index in
        TagValues(uniqueID: "tag \(index)", name: "Tag \(index)", nameModificationDate: date(index))
    }

    private static let words = [
        "lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do",
        "eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim",
    ]

    static func date(_ offset: Int) -> Date {
        Date(timeIntervalSince1970: 1_400_000_000 + Double(offset) * 61.25)
    }

    /// Note `index`: about 200 characters of text, two distinct tags, one attachment, links on
    /// one note in a hundred, every other note archived.
    static func note(_ index: Int) -> NoteValues {
        var text = "Note \(index):"
        var word = index
        while text.utf8.count < 200 {
            text += " " + words[word % words.count]
            word = (word * 7 + 3) % 1_000_003
        }
        let firstTag = index % tagCount
        var secondTag = (index / tagCount + 7 * index + 3) % tagCount
        if secondTag == firstTag { secondTag = (secondTag + 1) % tagCount }
        let attachment = AttachmentValues(uniqueID: "attachment \(index)", mimeType: "image/png", height: 480 + Int64(index % 100), width: 640)
        let links: [String]? = index % 100 == 0 ? ["https://example.com/\(index)", "https://example.org/notes/\(index)"] : nil
        let modified = date(index + 500)
        return NoteValues(
            uniqueID: firstNoteID + Int64(index),
            truncatedText: String(text.prefix(100)),
            links: links,
            sortDate: date(index),
            thumbnailID: attachment.uniqueID,
            archived: index % 2 == 1,
            text: text,
            creationDate: date(index),
            textModificationDate: modified,
            sortDateModificationDate: index % 3 == 0 ? modified : nil,
            archivedModificationDate: index % 2 == 1 ? modified : nil,
            tagsModificationDate: modified,
            attachmentsModificationDate: modified,
            modificationDate: modified,
            tagIndexes: [firstTag, secondTag],
            attachment: attachment)
    }

    static func notes(_ count: Int, startingAt start: Int = 0) -> [NoteValues] {
        (start..<(start + count)).map(note)
    }

    /// Article `index` belongs to feed `index % feedCount`.
    static let feedCount = 200

    /// The feed ID of feed `number` (of ``feedCount``).
    static func feedID(_ number: Int) -> String {
        "https://feed\(number % feedCount).example.com/rss"
    }

    static func article(_ index: Int) -> ArticleValues {
        ArticleValues(
            uniqueID: firstArticleID + Int64(index),
            feedID: feedID(index),
            title: "Article \(index) about \(words[index % words.count]) and \(words[(index / 3) % words.count])",
            url: "https://feed\(index % feedCount).example.com/\(index).html",
            datePublished: date(index),
            read: false,
            starred: index % 50 == 0)
    }

    /// `count` IDs spread evenly over `total` rows starting at `first`: every (total/count)-th.
    static func spreadIDs(count: Int, of total: Int, first: Int64) -> [Int64] {
        let step = max(1, total / max(1, count))
        return (0..<count).map { first + Int64($0 * step) }
    }
}

/// Links are stored as a binary property list, as Vesper did.
enum LinksCoding {
    static func encode(_ links: [String], with encoder: PropertyListEncoder) throws -> Data {
        try encoder.encode(links)
    }

    static func makeEncoder() -> PropertyListEncoder {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return encoder
    }
}
