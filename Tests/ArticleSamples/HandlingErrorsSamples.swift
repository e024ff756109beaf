import Foundation
import QSData

// The Swift samples of the DocC article "Handling errors". Each region between `sample-begin`
// and `sample-end` must equal one of the article's Swift blocks (DocumentationSampleTests checks).
struct HandlingErrorsSamples {
    /// Stands in for the app's own way of showing a failure.
    func showAlert(_ message: String) {
        print(message)
    }

    @MainActor
    func reportFailures(of store: QSStore) -> QSObservation {
        // sample-begin
        let observation = store.observeWriteErrors { error in
            showAlert(error.description)  // "save 3 Note failed and was rolled back: SQLite error 19: …"
        }
        // sample-end
        return observation
    }
}
