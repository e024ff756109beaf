import Foundation

/// Why a wire object could not be read. Each message names the object and what was wrong.
public enum VSSyncObjectError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The element is not a JSON object.
    case notAnObject(kind: String)
    /// A required key is missing, null, or of the wrong type.
    case missingValue(kind: String, key: String)
    /// A value is present but not acceptable (an attachment ID that is not of the protocol's shape).
    case invalidValue(kind: String, key: String)
    /// A note's `attachments` is not base64 of a JSON array of attachments with valid IDs.
    case badAttachments(noteID: Int64)

    public var description: String {
        switch self {
        case .notAnObject(let kind): "A \(kind) from the server is not a JSON object."
        case .missingValue(let kind, let key): "A \(kind) from the server has no usable \"\(key)\"."
        case .invalidValue(let kind, let key): "A \(kind) from the server has an unacceptable \"\(key)\"."
        case .badAttachments(let noteID):
            "Note \(noteID) from the server has attachments that are not base64 JSON of attachments with valid IDs."
        }
    }
}
