import Foundation
import QSData

// The Swift sample of the DocC article "Searching text", compiled against a hand-written `Note`
// with the article's properties. Each region between `sample-begin` and `sample-end` must equal
// one of the article's Swift blocks (DocumentationSampleTests checks).
struct SearchingTextSamples {
    final class Note: QSUpdatableObject {
        let uniqueID: Int64
        var text: String
        var archived: Bool

        init(row: QSRow) throws {
            uniqueID = try row["uniqueID"]
            text = try row["text"]
            archived = try row["archived"]
        }

        func update(from row: QSRow) throws {
            text = try row["text"]
            archived = try row["archived"]
        }

        func encode(to row: inout QSRowEncoder) {
            row["uniqueID"] = uniqueID
            row["text"] = text
            row["archived"] = archived
        }
    }

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
