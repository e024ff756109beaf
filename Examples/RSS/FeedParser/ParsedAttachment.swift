import Foundation

/// A file attached to an article: RSS `enclosure`, Atom `link rel="enclosure"`,
/// JSON Feed `attachments`.
public struct ParsedAttachment: Sendable, Hashable {
    /// Location of the file.
    public var url: URL
    /// MIME type, e.g. `audio/mpeg`.
    public var mimeType: String?
    /// Human-readable title (JSON Feed only).
    public var title: String?
    /// Size in bytes, when declared and positive.
    public var sizeInBytes: Int?
    /// Play time in seconds (JSON Feed only).
    public var durationInSeconds: Double?

    /// Creates an attachment value.
    public init(url: URL, mimeType: String? = nil, title: String? = nil,
                sizeInBytes: Int? = nil, durationInSeconds: Double? = nil) {
        self.url = url
        self.mimeType = mimeType
        self.title = title
        self.sizeInBytes = sizeInBytes
        self.durationInSeconds = durationInSeconds
    }
}
