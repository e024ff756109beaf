import Foundation
import VesperCore

/// A note the server refused on its own (or that could not be put in the wire form), kept out
/// of uploads until it is edited: its local modification date then moves and it is sent again.
public struct VSSetAsideNote: Codable, Equatable, Sendable {
    public var noteID: Int64
    /// The note's local modification date when it was refused, in seconds since 1970.
    public var modificationDate: Double
    /// What the server (or the client) said, for the sync summary.
    public var reason: String

    public init(noteID: Int64, modificationDate: Double, reason: String) {
        self.noteID = noteID
        self.modificationDate = modificationDate
        self.reason = reason
    }

    /// Whether `note` is still the version that was refused (not edited since).
    @MainActor func isUnchanged(_ note: VSNote) -> Bool {
        guard let date = note.modificationDate, note.uniqueID == noteID else { return false }
        // A double printed to JSON and read back need not be the identical value.
        return abs(date.timeIntervalSince1970 - modificationDate) < 0.000_001
    }
}

/// Uploads the notes changed here in batches bounded by count and by bytes, so that no request
/// is larger than the server takes, and makes sure one note the server refuses never holds back
/// the others: a batch refused as a whole (400, 413, 422) is split in halves until the refused
/// notes stand alone; those are set aside and every other note goes up.
@MainActor
struct VSNoteUploader {
    let caller: VSAPICaller
    let dataController: VSDataController
    let limits: VSUploadLimits

    /// What an upload run leaves: the last response's notes (every note changed on the server
    /// since the token), the newest token, and the notes set aside.
    struct Outcome {
        var serverNotes: [VSJSON] = []
        var syncToken: String?
        var uploaded: [Int64] = []
        var setAside: [VSSetAsideNote] = []
    }

    /// Uploads `notes`, except those in `setAside` that were not edited since they were refused.
    /// - Throws: ``VSAccountError`` when a call fails for any reason other than refusing its notes.
    func upload(_ notes: [VSNote], syncToken: String?, setAside previous: [VSSetAsideNote]) async throws -> Outcome {
        var outcome = Outcome()
        // 1. Notes refused before and not edited since stay aside, without a request.
        let previousByID = Dictionary(previous.map { ($0.noteID, $0) }, uniquingKeysWith: { first, _ in first })
        var pending: [(note: VSNote, json: VSJSON, bytes: Int)] = []
        for note in notes {
            if let earlier = previousByID[note.uniqueID], earlier.isUnchanged(note) {
                outcome.setAside.append(earlier)
                continue
            }
            // 2. The wire form; a note that can't take it is set aside like a refused one.
            do {
                let json = try VSSyncNote(note).json()
                pending.append((note, json, try json.data().count + 1))
            } catch {
                outcome.setAside.append(Self.setAside(note, reason: String(describing: error)))
            }
        }
        // 3. Batches by count and bytes; a refused batch comes back as two halves at the front.
        var queue = VSUploadBatches.ranges(sizes: pending.map(\.bytes), limits: limits)
        var answered = false
        while !queue.isEmpty {
            let range = queue.removeFirst()
            let batch = pending[range]
            let result = await caller.uploadNotes(batch.map(\.json), syncToken: syncToken)
            if Self.refusesItsNotes(result) {
                if range.count == 1, let only = batch.first {
                    outcome.setAside.append(Self.setAside(only.note, reason: Self.reason(result)))
                } else {
                    let middle = range.lowerBound + range.count / 2
                    queue.insert(contentsOf: [range.lowerBound..<middle, middle..<range.upperBound], at: 0)
                }
                continue
            }
            outcome.serverNotes = try VSSyncRun.array(of: result, call: "notes")
            answered = true
            // The server has this batch: unmark the notes not changed again since.
            try dataController.syncDidUploadNotes(batch.compactMap { item in
                item.note.modificationDate.map { VSDataController.UploadMark(noteID: item.note.uniqueID, modificationDate: $0) }
            })
            outcome.uploaded += batch.map(\.note.uniqueID)
            outcome.syncToken = result.syncToken ?? outcome.syncToken
        }
        // 4. Nothing went up (nothing changed here, or all of it was refused): one empty request
        //    downloads what changed on the server.
        if !answered {
            let result = await caller.uploadNotes([], syncToken: syncToken)
            outcome.serverNotes = try VSSyncRun.array(of: result, call: "notes")
            outcome.syncToken = result.syncToken
        }
        return outcome
    }

    /// A 400, 413 or 422 refuses what the request carried; anything else (401 after a new
    /// login, 5xx, no answer) says nothing about the notes and fails the step.
    private static func refusesItsNotes(_ result: VSAPIResult) -> Bool {
        [400, 413, 422].contains(result.statusCode)
    }

    private static func reason(_ result: VSAPIResult) -> String {
        result.error.map(\.description) ?? "the server answered HTTP \(result.statusCode)"
    }

    private static func setAside(_ note: VSNote, reason: String) -> VSSetAsideNote {
        VSSetAsideNote(noteID: note.uniqueID, modificationDate: note.modificationDate?.timeIntervalSince1970 ?? 0, reason: reason)
    }
}
