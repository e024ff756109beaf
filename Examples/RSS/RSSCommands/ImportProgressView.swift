import Foundation
import RSSCore

/// Shows an import as it runs: a progress bar redrawn in place on a terminal, plain lines
/// otherwise. Skipped sources and warnings are always printed, on standard error.
@MainActor
final class ImportProgressView {
    private let console: Console
    private let showsFeeds: Bool
    private let bar: ProgressBar
    private var total = 0
    private var done = 0
    private var newArticles = 0

    init(console: Console, showsFeeds: Bool) {
        self.console = console
        self.showsFeeds = showsFeeds
        bar = ProgressBar(console: console)
    }

    func show(_ event: ImportEvent) {
        switch event {
        case .discovered(let total):
            self.total = total
        case .subscribed(let source):
            done += 1
            if !console.isTerminal, showsFeeds { console.line("\(source): subscribed, not fetched") }
        case .imported(let source, let title, let articles):
            done += 1
            newArticles += articles.new
            if !console.isTerminal, showsFeeds {
                console.line("\(title) (\(source)): \(Output.describe(articles))")
            }
        case .warned(let warning):
            bar.clear()
            console.errorLine("warning: \(warning.source): \(warning.reason)")
        case .failed(let failure):
            done += 1
            bar.clear()
            console.errorLine("skipped \(failure.source): \(failure.reason)")
        }
        bar.draw(done: done, total: total, caption: "\(done)/\(total) sources · \(Output.count(newArticles)) new articles")
    }

    /// Ends the bar's line so that what follows starts on a new one.
    func finish() {
        bar.finish()
    }
}
