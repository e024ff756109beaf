import Foundation
import VesperCore

/// How notes and tags read in a terminal.
@MainActor
enum TextFormat {
    /// "2024-05-01 14:03", in the local time zone.
    static func date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// One line per timeline note: ID, date, preview, and a mark when archived or with a picture.
    static func timeline(_ notes: [VSTimelineNote], empty: String) -> String {
        rows(notes.map { ($0, preview($0.truncatedText)) }, empty: empty)
    }

    /// One line per search result, like the timeline, with the passage that matched in place of
    /// the preview.
    static func searchResults(_ results: [VSSearchResult], empty: String) -> String {
        rows(results.map { ($0.note, $0.snippet) }, empty: empty)
    }

    private static func rows(_ rows: [(note: VSTimelineNote, text: String)], empty: String) -> String {
        guard !rows.isEmpty else { return empty }
        let width = rows.map { String($0.note.uniqueID).count }.max() ?? 0
        return rows.map { note, text in
            let id = String(note.uniqueID).leftPadded(to: width)
            var marks = ""
            if note.thumbnailID != nil { marks += " [picture]" }
            if note.archived { marks += " [archived]" }
            return "\(id)  \(date(note.sortDate))  \(text)\(marks)"
        }.joined(separator: "\n")
    }

    /// The first line of the truncated text, cut to fit one terminal line.
    static func preview(_ text: String?, length: Int = 60) -> String {
        let line = text ?? ""
        return line.count > length ? line.prefix(length - 1) + "…" : line
    }

    /// A note in full.
    static func note(_ note: VSNote, storage: VSAttachmentStorage) -> String {
        var lines = ["Note \(note.uniqueID)\(note.archived ? " (archived)" : "")"]
        lines.append("Created \(date(note.creationDate)), sorted as \(date(note.sortDate))")
        if let modified = note.modificationDate { lines.append("Changed here \(date(modified)) (not yet synced)") }
        lines.append("Tags: " + (note.tags.isEmpty ? "none" : note.tags.map(\.name).joined(separator: ", ")))
        for attachment in note.attachments {
            lines.append("Attachment: \(attachment.mimeType) \(attachment.width)×\(attachment.height) \(storage.file(for: attachment)?.url.path ?? "(invalid attachment ID)")")
        }
        for link in note.links ?? [] { lines.append("Link: \(link)") }
        lines.append("")
        lines.append(note.text)
        return lines.joined(separator: "\n")
    }

    /// "3 notes", "1 note".
    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
