import Logging
import Synchronization

/// Keeps what the server logs, so tests can read what it logs in place of sending e-mail.
final class LogRecorder: Sendable {
    struct Entry: Sendable {
        var message: String
        var metadata: [String: String]
    }

    private let entries = Mutex<[Entry]>([])

    /// A logger that records into this recorder at `info` and above.
    var logger: Logger {
        var logger = Logger(label: "vesper-server") { _ in RecordingHandler(recorder: self) }
        logger.logLevel = .info
        return logger
    }

    /// Every entry with this message, oldest first.
    func entries(_ message: String) -> [Entry] {
        entries.withLock { $0.filter { $0.message == message } }
    }

    fileprivate func record(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }
}

private struct RecordingHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        recorder.record(.init(message: event.message.description, metadata: merged.mapValues { "\($0)" }))
    }
}
