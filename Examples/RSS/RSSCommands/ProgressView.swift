import CommandLineTool
/// Shows a run over many feeds: a progress bar redrawn in place on standard error when that is
/// a terminal, a line per feed on standard output otherwise. Problems are always printed, on
/// standard error. `rss import` and `rss refresh` feed it their events.
@MainActor
final class ProgressView {
    private let console: Console
    private let showsFeeds: Bool
    /// What is counted, such as `sources` or `feeds`.
    private let unit: String
    private var total = 0
    private var done = 0
    private var newArticles = 0
    private var barIsShown = false

    init(console: Console, showsFeeds: Bool, unit: String) {
        self.console = console
        self.showsFeeds = showsFeeds
        self.unit = unit
    }

    /// The number of feeds or sources known so far.
    func setTotal(_ total: Int) {
        self.total = total
        drawBar()
    }

    /// One more is done; `line` describes it when lines are shown instead of the bar.
    func completed(_ line: String, newArticles: Int = 0) {
        done += 1
        self.newArticles += newArticles
        if !console.isTerminal, showsFeeds { console.line(line) }
        drawBar()
    }

    /// Prints a problem or notice on standard error; `isDone` when it ends that feed's work.
    func report(_ line: String, isDone: Bool) {
        if isDone { done += 1 }
        clearBar()
        console.errorLine(line)
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
        console.writeError("\r\(bar) \(done)/\(total) \(unit) · \(Output.count(newArticles)) new articles\u{1B}[K")
        barIsShown = true
    }

    private func clearBar() {
        guard barIsShown else { return }
        console.writeError("\r\u{1B}[K")
        barIsShown = false
    }
}
