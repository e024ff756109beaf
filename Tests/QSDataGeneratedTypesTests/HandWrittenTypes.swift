import Foundation
import QSData
import Synchronization

// The hand-written half of the library model, and the app's own additions to generated types:
// what an app writes next to the generated file.

/// A light, hand-written view of the shelves table, beside the generated `Shelf`.
struct ShelfSummary: QSDataObject, Equatable {
    let uniqueID: Int64
    let title: String

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
    }
}

/// A hand-written child of the generated `Shelf`.
struct Sticker: QSDataObject, Equatable {
    let uniqueID: String
    var motif: String?

    init(uniqueID: String, motif: String?) {
        self.uniqueID = uniqueID
        self.motif = motif
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        motif = try row["motif"]
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["motif"] = motif
    }
}

/// `Book` as a person would write it by hand, to compare the statements the two cost.
struct BookRecord: QSDataObject, Equatable {
    let uniqueID: String
    var title: String
    var subtitle: String?
    var pageCount: Int
    var rating: Double?
    var read: Bool
    var published: Date?
    var cover: Data?
    var keywords: [String]
    var details: [String: String]?
    var authors: [Author]

    init(_ book: Book) {
        uniqueID = book.uniqueID
        title = book.title
        subtitle = book.subtitle
        pageCount = book.pageCount
        rating = book.rating
        read = book.isRead
        published = book.published
        cover = book.cover
        keywords = book.keywords
        details = book.details
        authors = book.authors
    }

    init(row: QSRow) throws {
        uniqueID = try row["uniqueID"]
        title = try row["title"]
        subtitle = try row["subtitle"]
        pageCount = try row["pageCount"]
        rating = try row["rating"]
        read = try row["read"]
        published = try row["published"]
        cover = try row["cover"]
        keywords = try row["keywords"]
        details = try row["details"]
        authors = try row.related("authors")
    }

    func encode(to row: inout QSRowEncoder) {
        row["uniqueID"] = uniqueID
        row["title"] = title
        row["subtitle"] = subtitle
        row["pageCount"] = pageCount
        row["rating"] = rating
        row["read"] = read
        row["published"] = published
        row["cover"] = cover
        row["keywords"] = keywords
        row["details"] = details
        row.setRelated("authors", authors)
    }
}

/// Counts `awakeFromFetch` calls per shelf, so parallel tests don't mix.
let awakenedShelves = Mutex<[Int64: Int]>([:])

extension Shelf {
    /// A computed property in an extension.
    var bookTitles: [String] { books.map(\.title) }

    /// A convenience initializer in an extension.
    convenience init(uniqueID: Int64, name: String) {
        self.init(uniqueID: uniqueID, createdAt: Date(timeIntervalSince1970: 1_700_000_000), position: 0, name: name)
    }

    /// The hook a generated type gets from QSDataObject, implemented by the app.
    func awakeFromFetch() {
        awakenedShelves.withLock { $0[uniqueID, default: 0] += 1 }
    }

    /// A method that changes the shelf: the setters are internal, so this module may.
    func add(_ book: Book) {
        books.append(book)
    }
}

extension Book: Identifiable, Hashable {
    var id: String { uniqueID }
    var isLong: Bool { pageCount > 500 }

    func hash(into hasher: inout Hasher) { hasher.combine(uniqueID) }
}

extension Label: CustomStringConvertible {
    var description: String { color.map { "\(name) (\($0))" } ?? name }
}
