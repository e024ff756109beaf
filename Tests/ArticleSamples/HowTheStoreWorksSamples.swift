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
