import Foundation
import RSSCore

/// Shows an import as it runs: a progress bar redrawn in place on a terminal, plain lines
/// otherwise. Skipped sources are always printed, on standard error.
@MainActor
final class ImportProgressView {
    private let console: Console
    private let showsFeeds: Bool
    private var total = 0
    private var done = 0
    private var newArticles = 0
    private var barIsShown = false

    init(console: Console, showsFeeds: Bool) {
        self.console = console
        self.showsFeeds = showsFeeds
    }

    func show(_ event: ImportEvent) {
        switch event {
        case .discovered(let total):
            self.total = total
        case .imported(let source, let title, let new, let updated, let unchanged):
            done += 1
            newArticles += new
            if !console.isTerminal, showsFeeds {
                console.line("\(title) (\(source)): \(new) new, \(updated) updated, \(unchanged) unchanged")
            }
        case .failed(let failure):
            done += 1
            clearBar()
            console.errorLine("skipped \(failure.source): \(failure.reason)")
        }
        drawBar()
    }

    /// Ends the bar's line so that what follows starts on a new one.
    func finish() {
        if barIsShown { console.writeError("\n") }
        barIsShown = false
    }

    private func drawBar() {
        guard console.isTerminal, total > 0 else { return }
        let width = 30
        let filled = min(width, done * width / total)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        console.writeError("\r\(bar) \(done)/\(total) sources · \(Output.count(newArticles)) new articles\u{1B}[K")
        barIsShown = true
    }

    private func clearBar() {
        guard barIsShown else { return }
        console.writeError("\r\u{1B}[K")
        barIsShown = false
    }
}
