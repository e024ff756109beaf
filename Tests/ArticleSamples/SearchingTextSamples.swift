import Foundation
import QSData

// The Swift sample of the DocC article "Searching text", compiled against the hand-written `Note`
// of KeepingScreensCurrentSamples, which has the article's properties. Each region between `sample-begin` and `sample-end` must equal
// one of the article's Swift blocks (DocumentationSampleTests checks).
struct SearchingTextSamples {
    /// The article's `Note` needs `uniqueID`, `text` and `archived`, which this one has.
    typealias Note = KeepingScreensCurrentSamples.Note

    // sample-begin
    @MainActor
    func find(_ typed: String, in store: QSStore) async throws {
        let results = try await store.search(
            Note.self, for: typed,
            where: "archived = ?", arguments: [false],
            limit: 20,
            snippet: QSSnippetStyle(before: "**", after: "**", maxTokens: 10))
        for result in results {
            print(result.object.uniqueID, result.snippet ?? "", result.score)
        }
    }
    // sample-end
}
