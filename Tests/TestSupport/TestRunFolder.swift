import Foundation

/// Where a test process keeps its databases and files: one folder for the process, removed
/// with everything in it when the process exits, so that running the tests leaves nothing
/// behind. A run that was killed cannot clean up after itself; the next run removes the folders
/// of processes that are gone.
public enum TestRunFolder {
    private static let prefix = "qsdata-test-run-"

    /// The process's folder, made on first use.
    public static let url: URL = {
        removeFoldersOfEndedRuns()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)\(getpid())", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            fatalError("could not make the test run's folder \(url.path): \(error)")
        }
        atexit { TestRunFolder.remove(TestRunFolder.url) }
        return url
    }()

    /// A new, empty folder in the process's folder, named `prefix` and a UUID.
    public static func newFolder(_ prefix: String) -> URL {
        let folder = url.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            fatalError("could not make the test folder \(folder.path): \(error)")
        }
        return folder
    }

    /// A path for a new file in the process's folder, named `prefix`, a UUID and `suffix`.
    public static func newFile(_ prefix: String, suffix: String) -> URL {
        url.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)")
    }

    /// Removes the folders of earlier test processes that are no longer running.
    private static func removeFoldersOfEndedRuns() {
        let temporary = FileManager.default.temporaryDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            remove(temporary.appendingPathComponent(name))
        }
    }

    private static func remove(_ folder: URL) {
        do {
            try FileManager.default.removeItem(at: folder)
        } catch {
            // Nothing to report to: the process is ending, or the folder belongs to a run long gone.
            FileHandle.standardError.write(Data("could not remove the test folder \(folder.path): \(error)\n".utf8))
        }
    }
}
