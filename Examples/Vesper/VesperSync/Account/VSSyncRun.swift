import Foundation
import VesperCore

/// The steps of one sync (PROTOCOL.md, "One sync, seen from the client"), each a small pipeline: model → sync objects → call → sync
/// objects → merger. The account runs them in order and keeps the state they return.
@MainActor
struct VSSyncRun {
    let caller: VSAPICaller
    let dataController: VSDataController
    let uploadLimits: VSUploadLimits
    let now: () -> Date

    /// Tags: every local tag up; the server's newer or missing ones merged.
    func syncTags(into report: inout VSSyncReport) async throws {
        // 1. Every local tag, as sync objects.
        let local = try dataController.tags().map(VSSyncTag.init)
        // 2. The exchange.
        let result = await caller.uploadTags(local.map(\.json))
        let elements = try Self.array(of: result, call: "tags")
        report.tagsUploaded = local.count
        // 3. Merge what came back; tags without a usable name are skipped, as the stock client does.
        let serverTags = elements.compactMap { try? VSSyncTag(json: $0) }
        report.tagsDownloaded = try VSSyncTagMerger(dataController: dataController).merge(serverTags)
    }

    /// Deletions: the IDs deleted here up, in batches the server takes (no token: each response
    /// holds the full tombstone list, which is always correct); the returned IDs deleted here;
    /// each batch's IDs forgotten once the server has them.
    func syncDeletedNotes(into report: inout VSSyncReport) async throws {
        let pending = try await dataController.deletedNoteIDs()
        // One request per batch (one empty request when nothing was deleted here, to download).
        for start in stride(from: 0, to: max(pending.count, 1), by: Self.deletedNotesPerRequest) {
            let batch = Array(pending[start..<min(start + Self.deletedNotesPerRequest, pending.count)])
            let result = await caller.uploadDeletedNotes(batch)
            let elements = try Self.array(of: result, call: "deletedNotes")
            report.deletionsDownloaded += try await dataController.applySyncDeletedNotes(ids: elements.compactMap(\.integer))
            try await dataController.syncDidUploadDeletedNotes(ids: batch)
            report.deletionsUploaded += batch
        }
    }

    /// Deleted-note IDs per deletedNotes request: well under the server's default limit (10,000),
    /// so that no request holds the server's database for long.
    static let deletedNotesPerRequest = 5_000

    /// Notes: the notes changed here up, in batches (see ``VSNoteUploader``), with the stored
    /// sync token; each batch's notes unmarked once the server has them; notes the server
    /// refuses set aside; the last response merged. Returns the token to store, or nil when no
    /// response carried one, and the notes now set aside.
    ///
    /// Every batch carries the same token, so each response holds every note changed on the
    /// server since the same date, and the last one holds all that an earlier one did, in its
    /// latest state, less notes deleted meanwhile: merging only the last is the same as merging
    /// each in turn, without reading the earlier ones' notes again and again (a first sync of
    /// 10,000 notes would otherwise merge each note once per later batch).
    func syncNotes(syncToken: String?, setAside: [VSSetAsideNote], into report: inout VSSyncReport) async throws
        -> (syncToken: String?, setAside: [VSSetAsideNote])
    {
        // 1.–3. The notes changed here, up; refused ones set aside.
        let notes = try await dataController.notesToUpload()
        let uploader = VSNoteUploader(caller: caller, dataController: dataController, limits: uploadLimits)
        let outcome = try await uploader.upload(notes, syncToken: syncToken, setAside: setAside)
        report.notesUploaded += outcome.uploaded
        report.notesSetAside = outcome.setAside
        // 4. Server notes as sync objects; a malformed one is reported and skipped.
        var serverNotes: [VSSyncNote] = []
        for element in outcome.serverNotes {
            do { serverNotes.append(try VSSyncNote(json: element)) } catch { report.notesRejected.append(String(describing: error)) }
        }
        // 5. Merge, never resurrecting a note deleted here meanwhile.
        let pendingDeletions = Set(try await dataController.deletedNoteIDs())
        let merged = try await VSSyncNoteMerger(dataController: dataController).merge(serverNotes, pendingDeletions: pendingDeletions)
        report.notesCreated += merged.created
        report.notesUpdated += merged.updated
        try await dataController.flush()
        return (outcome.syncToken, outcome.setAside)
    }

    /// Attachment bytes.
    func syncAttachments(into report: inout VSSyncReport) async throws {
        let outcome = try await VSAttachmentSyncer(caller: caller, dataController: dataController, now: now).sync()
        report.attachmentsUploaded = outcome.uploaded
        report.attachmentsDownloaded = outcome.downloaded
        report.failures += outcome.failures.map { "attachments: \($0)" }
    }

    /// The JSON array of a successful result; empty for an empty body (204).
    /// - Throws: ``VSAccountError/callFailed(call:error:)`` or ``VSAccountError/unexpectedResponse(call:reason:)``.
    static func array(of result: VSAPIResult, call: String) throws -> [VSJSON] {
        if let error = result.error { throw VSAccountError.callFailed(call: call, error: error) }
        guard let json = result.json else {
            guard result.data?.isEmpty ?? true else { throw VSAccountError.unexpectedResponse(call: call, reason: "body is not JSON") }
            return []
        }
        guard let array = json.array else { throw VSAccountError.unexpectedResponse(call: call, reason: "not a JSON array") }
        return array
    }
}
