import Foundation
import RSSCore

/// Shows a refresh as it runs: a progress bar on a terminal, a line per feed otherwise.
/// Failures, warnings and moved feeds are always printed, on standard error.
@MainActor
final class RefreshProgressView {
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

    func show(_ event: RefreshEvent) {
        switch event {
        case .started(let total):
            self.total = total
        case .notModified(let feed):
            done += 1
            if !console.isTerminal, showsFeeds { console.line("\(feed): not modified") }
        case .fetched(let feed, let title, let articles):
            done += 1
            newArticles += articles.new
            if !console.isTerminal, showsFeeds { console.line("\(title) (\(feed)): \(Output.describe(articles))") }
        case .moved(let move):
            bar.clear()
            console.errorLine("moved \(move.from) → \(move.to) (permanent redirect; the subscription follows)")
        case .warned(let warning):
            bar.clear()
            console.errorLine("warning: \(warning.source): \(warning.reason)")
        case .failed(let failure):
            done += 1
            bar.clear()
            console.errorLine("failed \(failure.source): \(failure.reason)")
        }
        bar.draw(done: done, total: total, caption: "\(done)/\(total) feeds · \(Output.count(newArticles)) new articles")
    }

    func finish() {
        bar.finish()
    }
}
