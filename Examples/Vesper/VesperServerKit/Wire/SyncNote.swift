import Foundation

/// A note as the server merges and stores it: typed values, dates as exact milliseconds.
///
/// `attachments` holds the JSON text that travels base64-encoded on the wire, so the
/// server can only ever emit valid base64 for it.
struct SyncNote: Sendable, Equatable {
    var noteID: Int64
    var archived: Bool?
    var text: String?
    var creationDate: Int64
    var sortDate: Int64
    var textModificationDate: Int64?
    var archivedModificationDate: Int64?
    var sortDateModificationDate: Int64?
    var tagsModificationDate: Int64?
    var attachmentsModificationDate: Int64?
    var tags: String?
    var attachments: Data?
}

/// A tag as the server merges and stores it.
struct SyncTag: Sendable, Equatable {
    var uniqueID: String
    var name: String
    var nameModificationDate: Int64
}

/// The largest note ID a client may generate: 2^53, the largest integer a JavaScript double holds.
let maximumNoteID: Int64 = 9_007_199_254_740_992
