import ArgumentParser
import RSSCore

/// `--concurrency` and `--per-host`: how widely `rss import` and `rss refresh` download.
struct DownloadLimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Feeds downloaded at once.", valueName: "count"))
    var concurrency = DownloadLimits.standard.total

    @Option(name: .customLong("per-host"), help: ArgumentHelp("Feeds downloaded at once from any one host.", valueName: "count"))
    var perHost = DownloadLimits.standard.perHost

    func validate() throws {
        guard concurrency > 0, perHost > 0 else { throw ValidationError("--concurrency and --per-host must be at least 1") }
    }

    var limits: DownloadLimits { DownloadLimits(total: concurrency, perHost: perHost) }
}
