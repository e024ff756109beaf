import Foundation
import Testing

/// A fresh temporary folder for one test, removed with everything in it when the test lets go
/// of it. Keep it alive for as long as anything inside is open (the `with…` helpers of each
/// test target do).
public final class TestFolder: Sendable {
    public let url: URL

    /// - Parameter prefix: the start of the folder's name, so leftovers show whose they are.
    public init(prefix: String = "qsdata-examples-tests") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // A database connection that closes on another thread meanwhile (a server's storage, let
        // go by its event loops after the server's shutdown) deletes its -wal and -shm files,
        // and a file gone before the removal reaches it fails the removal: try again then.
        for attempt in 1 ... 3 {
            do {
                try FileManager.default.removeItem(at: url)
                return
            } catch let error as CocoaError where error.code == .fileNoSuchFile && attempt < 3 {
                continue
            } catch {
                Issue.record(error, "could not remove the test folder \(url.path)")
                return
            }
        }
    }

    /// `name` inside the folder.
    public func appending(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// A subfolder of this folder, created if needed.
    public func subfolder(_ name: String) throws -> URL {
        let folder = url.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `data` to `name` inside the folder (creating intermediate folders) and returns its URL.
    @discardableResult
    public func file(_ name: String, _ data: Data) throws -> URL {
        let fileURL = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: fileURL)
        return fileURL
    }
}
