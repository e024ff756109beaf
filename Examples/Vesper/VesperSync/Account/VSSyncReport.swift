import Foundation

/// What one sync sent and received, step by step, and which steps failed.
public struct VSSyncReport: Codable, Equatable, Sendable {
    public var tagsUploaded = 0
    /// Tags created or renamed here from the server.
    public var tagsDownloaded: [String] = []
    public var deletionsUploaded: [Int64] = []
    /// Notes deleted here because they were deleted elsewhere.
    public var deletionsDownloaded: [Int64] = []
    public var notesUploaded: [Int64] = []
    /// Notes the server refuses (or that can't be sent), with why: they wait, unsent, until
    /// they are edited, while every other note syncs.
    public var notesSetAside: [VSSetAsideNote] = []
    public var notesCreated: [Int64] = []
    public var notesUpdated: [Int64] = []
    /// Server notes that could not be read (malformed), by reason.
    public var notesRejected: [String] = []
    public var attachmentsUploaded: [String] = []
    public var attachmentsDownloaded: [String] = []
    /// One line per failed step: "notes: the server answered HTTP 500".
    public var failures: [String] = []
    /// The server's clock minus this device's, in seconds (0 when within 120 s).
    public var clockSkew: TimeInterval = 0

    public init() {}

    public var succeeded: Bool { failures.isEmpty }
}
