import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import QSData

/// The Vesper app core: opens the notes database and is the one place where notes change.
///
/// Two paths change notes, and they differ in one thing. The user-change methods
/// (`userDid…`) set a value, its per-property modification date and the local
/// `modificationDate` that marks the note for upload. The sync path
/// (``applySyncValues(_:to:)``) sets the server's values and dates and leaves the local
/// modification date alone, so a note downloaded from the server is not uploaded back.
/// ```swift
/// let vesper = try await VSDataController.open(at: databaseURL)
/// let note = try await vesper.userDidCreateNote(text: "Buy milk", tagNames: ["Errands"])
/// try vesper.userDidMarkAsArchived([note])
/// try await vesper.close()
/// ```
@MainActor
public final class VSDataController {
    /// Every model type Vesper stores.
    public static let types: [any QSDataObject.Type] = [VSNote.self, VSTimelineNote.self, VSTag.self, VSAttachment.self]

    /// The store; use it for change notifications and statement accounting.
    public let store: QSStore
    /// The attachment files beside the database.
    public let attachmentStorage: VSAttachmentStorage
    /// The current date, for modification dates. Tests replace it.
    public var now: () -> Date = Date.init
    /// Proposes a note ID; ``makeNoteID()`` checks it is in range and unused. Tests replace it.
    public var proposeNoteID: () -> Int64 = { Int64.random(in: VSDataController.noteIDRange) }

    /// Note IDs are random integers above 999 and at most 2^53, so they survive a trip through a
    /// JSON number (a double) unchanged.
    public static let noteIDRange: ClosedRange<Int64> = 1_000...(1 << 53)

    private init(store: QSStore) {
        self.store = store
        self.attachmentStorage = VSAttachmentStorage(databaseURL: store.url)
    }

    /// Opens (or creates) the notes database at `url` and loads every tag. The folder must exist:
    /// a mistyped path is refused rather than created.
    ///
    /// - Throws: ``VesperError/databaseFolderMissing(path:)``, or the store's errors.
    public static func open(at url: URL) async throws -> VSDataController {
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw VesperError.databaseFolderMissing(path: folder.path)
        }
        // Notes are private: a new database is created readable by its owner only, whatever
        // the umask (SQLite gives the -wal and -shm files the database's mode).
        let created = try createOwnerOnlyFileIfMissing(url.path)
        do {
            let store = try await QSStore.open(
                at: url, model: VesperResources.model(), schema: VesperResources.schema(), types: types)
            return VSDataController(store: store)
        } catch {
            // A file made here for a database that then failed to open is not left behind.
            if created { removeDatabaseFiles(url.path) }
            switch error {
            case QSDataError.foreignDatabase(let path), QSDataError.notADatabase(let path):
                throw VesperError.notAVesperDatabase(path: path)
            default:
                throw error
            }
        }
    }

    /// Waits for every enqueued write and throws the first that failed.
    public func flush() async throws {
        try await store.flush()
    }

    /// Flushes and closes the database.
    public func close() async throws {
        try await store.close()
    }

    /// A note ID in ``noteIDRange`` used by no note and no deleted note.
    func makeNoteID() async throws -> Int64 {
        for _ in 0..<100 {
            let candidate = proposeNoteID()
            guard Self.noteIDRange.contains(candidate) else { continue }
            let taken = try await store.read { db in
                try db.fetchValue(
                    "SELECT EXISTS (SELECT 1 FROM notes WHERE uniqueID = ?1) OR EXISTS (SELECT 1 FROM deletedNotes WHERE uniqueID = ?1)",
                    [.integer(candidate)])
            }
            if taken == .integer(0) { return candidate }
        }
        throw VesperError.noFreeNoteID
    }
}

/// Creates an empty file readable and writable by its owner only, unless one exists; with
/// O_EXCL a file another process has just made (and may be writing) is left alone.
/// Returns whether it made the file.
private func createOwnerOnlyFileIfMissing(_ path: String) throws -> Bool {
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
        close(descriptor)
        return true
    }
    guard errno == EEXIST else {
        throw VesperError.cannotCreateDatabase(path: path, reason: String(cString: strerror(errno)))
    }
    return false
}

/// Removes a database file and SQLite's side files.
private func removeDatabaseFiles(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        // Nothing to report: the open's own error is the one the caller needs.
        unlink(path + suffix)
    }
}
