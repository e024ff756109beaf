import Foundation
import Hummingbird
import Logging

/// tags, deletedNotes, notes (PROTOCOL.md, "Tags", "Deleted notes", "Notes").
extension VesperAPI {
    /// UniqueIDs recomputed from names, nameless elements
    /// skipped, upserts on (userID, uniqueID), and 200 with an array in every case.
    func tags(_ request: Request, context: VesperRequestContext) async throws -> Response {
        let account = try verifiedLogin(request)
        let uploaded = try JSONBody.decode([WireTag].self, from: try await collectJSON(request), empty: [])
        let tags = try await storage.syncTags(uploaded.compactMap { try $0.syncTag() }, account: account)
        return try .json(tags.map(WireTagResponse.init))
    }

    /// 200 with the IDs of tombstones newer than the token that existed before this call; 413
    /// for more IDs than ``VesperServerConfiguration/maxDeletedNotesPerRequest``.
    func deletedNotes(_ request: Request, context: VesperRequestContext) async throws -> Response {
        let account = try verifiedLogin(request)
        let uploaded = try JSONBody.decode([Int64].self, from: try await collectJSON(request), empty: [])
        guard uploaded.count <= configuration.maxDeletedNotesPerRequest else {
            throw APIError.tooManyElements(what: "deleted note IDs", limit: configuration.maxDeletedNotesPerRequest)
        }
        if let bad = uploaded.first(where: { $0 < 0 || $0 > maximumNoteID }) {
            throw APIError.badRequest("note ID \(bad) is out of range")
        }
        let since = SyncToken.date(from: request.headers[.vesperSyncToken], userID: account.id)
        let result = try await storage.syncDeletedNotes(uploaded, since: since, account: account)
        var response = try Response.json(result.items)
        response.headers[.vesperSyncToken] = SyncToken.encode(userID: account.id, date: result.date)
        return response
    }

    /// Merges the upload, then 200 with the notes changed since the token date minus
    /// 10 minutes, or 204 when there are none; 413 for more notes than
    /// ``VesperServerConfiguration/maxNotesPerRequest``. Every element is validated before anything is
    /// written, so a bad element writes nothing.
    func notes(_ request: Request, context: VesperRequestContext) async throws -> Response {
        let account = try verifiedLogin(request)
        let wireNotes = try JSONBody.decode([WireNote].self, from: try await collectJSON(request), empty: [])
        guard wireNotes.count <= configuration.maxNotesPerRequest else {
            throw APIError.tooManyElements(what: "notes", limit: configuration.maxNotesPerRequest)
        }
        var uploaded: [SyncNote] = []
        uploaded.reserveCapacity(wireNotes.count)
        for wireNote in wireNotes {
            uploaded.append(try wireNote.syncNote())
        }
        let since = SyncToken.date(from: request.headers[.vesperSyncToken], userID: account.id)
        let result = try await storage.syncNotes(
            uploaded, since: since, overlap: Self.notesOverlap, account: account)
        context.logger.debug(
            "Notes synced",
            metadata: ["userID": "\(account.id)", "uploaded": "\(uploaded.count)", "returned": "\(result.items.count)"])
        var response =
            result.items.isEmpty ? Response.empty(.noContent) : Response.json(bytes: WireNotesResponse.body(result.items))
        response.headers[.vesperSyncToken] = SyncToken.encode(userID: account.id, date: result.date)
        return response
    }
}
