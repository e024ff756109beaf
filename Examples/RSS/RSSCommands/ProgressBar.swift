/// A progress bar redrawn in place on standard error, when that is a terminal.
@MainActor
final class ProgressBar {
    private let console: Console
    private var isShown = false

    init(console: Console) {
        self.console = console
    }

    /// Draws `done` of `total` with a caption, such as `3/10 sources · 120 new articles`.
    func draw(done: Int, total: Int, caption: String) {
        guard console.isTerminal, total > 0 else { return }
        let width = 30
        let filled = min(width, done * width / total)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        console.writeError("\r\(bar) \(caption)\u{1B}[K")
        isShown = true
    }

    /// Erases the bar so that a line can be printed in its place.
    func clear() {
        guard isShown else { return }
        console.writeError("\r\u{1B}[K")
        isShown = false
    }

    /// Ends the bar's line so that what follows starts on a new one.
    func finish() {
        if isShown { console.writeError("\n") }
        isShown = false
    }
}
