import Foundation

/// Reads the files the store is configured from, turning every failure into
/// ``QSDataError/unreadableFile(path:reason:)`` with the path and a reason a person can act on.
enum FileContents {
    static func data(at url: URL) throws -> Data {
        try checkExists(url, folder: false)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw QSDataError.unreadableFile(path: url.path, reason: reason(for: error))
        }
    }

    static func text(at url: URL) throws -> String {
        guard let text = String(data: try data(at: url), encoding: .utf8) else {
            throw QSDataError.unreadableFile(path: url.path, reason: "the file is not UTF-8 text")
        }
        return text
    }

    /// The names of the entries in a folder, sorted.
    static func names(inFolder url: URL) throws -> [String] {
        try checkExists(url, folder: true)
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        } catch {
            throw QSDataError.unreadableFile(path: url.path, reason: reason(for: error))
        }
    }

    private static func checkExists(_ url: URL, folder: Bool) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw QSDataError.unreadableFile(path: url.path, reason: folder ? "no such folder" : "no such file")
        }
        if isFolder.boolValue != folder {
            throw QSDataError.unreadableFile(path: url.path, reason: folder ? "it is a file, not a folder" : "it is a folder, not a file")
        }
        if !FileManager.default.isReadableFile(atPath: url.path) {
            throw QSDataError.unreadableFile(path: url.path, reason: "permission denied")
        }
    }

    private static func reason(for error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return nsError.localizedDescription
    }
}
