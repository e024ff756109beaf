import CommandLineTool
import Foundation
import VesperCore
import VesperSync

/// The options every `vesper` command on the notes database takes: the shared `--database`.
typealias GlobalOptions = DatabaseOptions<NotesDatabase>

/// `vesper`'s notes database: `vesper/vesper.sqlite` in the data folder unless `--database` names
/// another, whose folder must exist (a mistyped path is refused rather than created).
enum NotesDatabase: OpenableDatabase {
    static let name = "vesper"
    static let note = "A given path's folder must exist."

    /// Opens the notes; with a sync account whose server clock differs, edits are stamped with the
    /// server's time.
    @MainActor static func open(at url: URL) async throws -> VSDataController {
        let vesper = try await VSDataController.open(at: url)
        if let skew = accountClockSkew(databaseURL: vesper.store.url), skew != 0 {
            let correction = VSClockSkew(seconds: skew)
            vesper.now = { VSSyncDate.truncated(correction.correctedNow(Date())) }
        }
        return vesper
    }

    @MainActor static func close(_ vesper: VSDataController) async throws {
        try await vesper.close()
    }

    /// The account's clock skew, or nil without an account. An account file that can't be read
    /// leaves the clock alone: `account status` and `sync` are the commands that report it, and
    /// every other command works without it.
    private static func accountClockSkew(databaseURL: URL) -> Double? {
        do {
            return try VSAccountFile(databaseURL: databaseURL).load()?.clockSkew
        } catch {
            return nil
        }
    }
}
