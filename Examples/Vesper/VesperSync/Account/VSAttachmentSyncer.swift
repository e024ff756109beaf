import Crypto
import Foundation
import VesperCore

/// Moves attachment bytes (PROTOCOL.md, "Attachment data"), after the notes carrying their metadata have synced.
///
/// 1. List the server's blobs.
/// 2. Upload each attachment a note uses whose file is here and not on the server: MD5, ask
///    for an upload URL, PUT the bytes. A failed PUT is retried at the next sync.
/// 3. Download each attachment a note uses that the server has and this device lacks. Only
///    referenced attachments are downloaded, and names are checked before touching the disk.
///
/// Low-quality `-low` variants are not made here (no image codec on every platform); tutorial
/// attachments are never transferred.
@MainActor
struct VSAttachmentSyncer {
    let caller: VSAPICaller
    let dataController: VSDataController
    let now: () -> Date

    struct Outcome {
        var uploaded: [String] = []
        var downloaded: [String] = []
        var failures: [String] = []
    }

    func sync() async throws -> Outcome {
        var outcome = Outcome()
        // 1. What the server has.
        let list = await caller.listBlobs()
        guard list.succeeded else { throw VSAccountError.callFailed(call: "blobs/list", error: list.error ?? .status(list.statusCode, body: "")) }
        let serverNames = Set((list.json?.array ?? []).compactMap { $0["name"]?.string })

        let storage = dataController.attachmentStorage
        let onDisk = storage.storedFileNames()
        let referenced = try await dataController.referencedAttachments()
            .filter { !$0.uniqueID.hasPrefix("tutorial") && VSAttachmentFile.isValidName($0.uniqueID) }

        // 2. Up: ours, not theirs.
        for attachment in referenced where onDisk.contains(attachment.uniqueID) && !serverNames.contains(attachment.uniqueID) {
            if let failure = await upload(attachment, storage: storage) {
                outcome.failures.append(failure)
            } else {
                outcome.uploaded.append(attachment.uniqueID)
            }
        }
        // 3. Down: theirs, used here, not on disk.
        for attachment in referenced where serverNames.contains(attachment.uniqueID) && !onDisk.contains(attachment.uniqueID) {
            let result = await caller.downloadBlob(filename: attachment.uniqueID)
            guard result.succeeded, let data = result.data, !data.isEmpty else {
                outcome.failures.append("download \(attachment.uniqueID): \(result.error.map(String.init(describing:)) ?? "empty body")")
                continue
            }
            try storage.store(data, uniqueID: attachment.uniqueID)
            outcome.downloaded.append(attachment.uniqueID)
        }
        return outcome
    }

    /// Uploads one file; returns a failure line, or nil when it arrived.
    private func upload(_ attachment: VSAttachment, storage: VSAttachmentStorage) async -> String? {
        let name = attachment.uniqueID
        let data: Data
        do {
            data = try storage.file(uniqueID: name).read()
        } catch {
            return "upload \(name): \(error)"
        }
        guard !data.isEmpty else { return nil }
        let md5 = Data(Insecure.MD5.hash(data: data)).base64EncodedString()
        let ticket = await caller.urlForUploading(filename: name, md5: md5, mimeType: attachment.mimeType, contentLength: data.count, date: now())
        guard ticket.succeeded, let urlString = ticket.json?["url"]?.string, let url = URL(string: urlString),
              url.scheme == "http" || url.scheme == "https" else {
            return "upload \(name): no upload URL (\(ticket.error.map(String.init(describing:)) ?? "unusable response"))"
        }
        var headers: [String: String] = [:]
        if case .object(let extra)? = ticket.json?["additionalHeaders"] {
            for (key, value) in extra { if let value = value.string { headers[key] = value } }
        }
        let put = await caller.putBlob(to: url, data: data, mimeType: attachment.mimeType, md5: md5, additionalHeaders: headers)
        guard put.succeeded else { return "upload \(name): \(put.error.map(String.init(describing:)) ?? "failed")" }
        return nil
    }
}
