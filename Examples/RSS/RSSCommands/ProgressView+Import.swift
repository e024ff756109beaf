import CommandLineTool
import RSSCore

extension ProgressView {
    /// The progress view of `rss import`.
    static func forImport(console: Console, showsFeeds: Bool) -> ProgressView {
        ProgressView(console: console, showsFeeds: showsFeeds, unit: "sources")
    }

    func show(_ event: ImportEvent) {
        switch event {
        case .discovered(let total):
            setTotal(total)
        case .subscribed(let source):
            completed("\(source): subscribed, not fetched")
        case .imported(let source, let title, let articles):
            completed("\(title) (\(source)): \(Output.describe(articles))", newArticles: articles.new)
        case .warned(let warning):
            report("warning: \(warning.source): \(warning.reason)", isDone: false)
        case .failed(let failure):
            report("skipped \(failure.source): \(failure.reason)", isDone: true)
        }
    }
}
