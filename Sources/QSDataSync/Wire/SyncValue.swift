import Foundation

/// One property's value on the wire: what an SQLite column holds.
///
/// JSON carries `null`, numbers, strings, and a blob as `{"base64": "…"}`. A whole number reads
/// back as an integer, whatever it was sent as: a replica stores a value by its property's type
/// (a `double` or `date` property turns it into a real again). A to-many relationship travels as
/// parts per child (see ``SyncListPart``); a JSON array of uniqueIDs is a whole list, as replicas
/// older than list parts send it.
public enum SyncValue: Hashable, Sendable, Codable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    /// A relationship's children, in order: a whole list, from a replica older than list parts.
    case ids([SyncID])
    /// A blob property's value: the bytes it names travel on their own (see ``SyncBlobReference``).
    case blobReference(SyncBlobReference)

    private enum BlobKey: String, CodingKey { case base64 }

    public init(from decoder: any Decoder) throws {
        // Plain values first, as most values are: each kind tried that does not match throws, and
        // an error costs far more than a decode (an allocation; a backtrace under Swift Testing).
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                self = .null
                return
            }
            if let text = try? single.decode(String.self) {
                self = .text(text)
                return
            }
            if let integer = try? single.decode(Int64.self) {
                self = .integer(integer)
                return
            }
            if let real = try? single.decode(Double.self) {
                self = .real(real)
                return
            }
        }
        if let reference = try? SyncBlobReference(from: decoder) {
            self = .blobReference(reference)
            return
        }
        if let object = try? decoder.container(keyedBy: BlobKey.self) {
            let text = try object.decode(String.self, forKey: .base64)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: .base64, in: object, debugDescription: "not base64")
            }
            self = .blob(data)
            return
        }
        if var list = try? decoder.unkeyedContainer() {
            var ids: [SyncID] = []
            while !list.isAtEnd { ids.append(try list.decode(SyncID.self)) }
            self = .ids(ids)
            return
        }
        let single = try decoder.singleValueContainer()
        throw DecodingError.dataCorruptedError(in: single, debugDescription: "not a sync value: expected null, a number, a string, a list of IDs or {\"base64\": …}")
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .integer(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .real(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .text(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .blob(let data):
            var object = encoder.container(keyedBy: BlobKey.self)
            try object.encode(data.base64EncodedString(), forKey: .base64)
        case .ids(let ids):
            var list = encoder.unkeyedContainer()
            for id in ids { try list.encode(id) }
        case .blobReference(let reference):
            try reference.encode(to: encoder)
        }
    }
}
