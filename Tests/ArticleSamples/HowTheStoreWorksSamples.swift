import QSData

// The Swift samples of the DocC article "How the store works", compiled, with the `Note` of
// KeepingScreensCurrentSamples. Each region between `sample-begin` and `sample-end` must equal one
// of the article's Swift blocks (DocumentationSampleTests checks).
struct HowTheStoreWorksSamples {
    typealias Note = KeepingScreensCurrentSamples.Note

    // sample-begin
    @MainActor
    func importNotes(_ notes: [Note], into store: QSStore) async throws {
        let write = try store.performInBackground {
            try store.save(notes)
        }
        let shown = try await store.fetch(Note.self, where: "archived = 0", limit: 200)  // doesn't wait
        print(shown.count)
        try await write.committed()
    }
    // sample-end
}

/// A class that marks the properties the app sets, as the article shows it.
enum ChangeMarkingSample {
    // sample-begin
    final class Note: QSChangeTrackingObject {
        let uniqueID: Int64
        var text: String { didSet { changedProperties.insert("text", from: oldValue, to: text) } }
        var changedProperties = QSChangedProperties()

        init(uniqueID: Int64, text: String) {
            self.uniqueID = uniqueID
            self.text = text
        }

        init(row: QSRow) throws {
            uniqueID = try row["uniqueID"]
            text = try row["text"]
        }

        func update(from row: QSRow) throws {
            text = try row["text"]
        }

        func encode(to row: inout QSRowEncoder) {
            row["uniqueID"] = uniqueID
            row["text"] = text
        }
    }
    // sample-end
}
