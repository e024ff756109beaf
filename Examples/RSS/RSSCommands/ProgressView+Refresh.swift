import CommandLineTool
import RSSCore

extension ProgressView {
    /// The progress view of `rss refresh`.
    static func forRefresh(console: Console, showsFeeds: Bool) -> ProgressView {
        ProgressView(console: console, showsFeeds: showsFeeds, unit: "feeds")
    }

    func show(_ event: RefreshEvent) {
        switch event {
        case .started(let total):
            setTotal(total)
        case .notModified(let feed):
            completed("\(feed): not modified")
        case .fetched(let feed, let title, let articles):
            completed("\(title) (\(feed)): \(Output.describe(articles))", newArticles: articles.new)
        case .moved(let move):
            report("moved \(move.from) → \(move.to) (permanent redirect; the subscription follows)", isDone: false)
        case .warned(let warning):
            report("warning: \(warning.source): \(warning.reason)", isDone: false)
        case .failed(let failure):
            report("failed \(failure.source): \(failure.reason)", isDone: true)
        case .postponed(let postponed):
            report("postponed \(postponed.feed): \(postponed.host) asked to wait until \(Output.date(postponed.until)) UTC (\(postponed.reason))",
                   isDone: true)
        }
    }
}
