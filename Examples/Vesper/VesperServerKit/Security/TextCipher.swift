import Crypto
import Foundation

/// Note text and attachment bytes encryption at rest (PROTOCOL.md, "Privacy and isolation on the server").
///
/// AES-256-GCM with a random 96-bit nonce per write; the stored value is `nonce ‖ ciphertext ‖ tag`
/// and the row keeps the ID of the key that sealed it, so decryption picks that key directly
/// instead of trial decryption — after a rotation, rows sealed with an older key stay readable.
/// The associated data binds a ciphertext to its row (`"<userID>:<noteID>"`), so a sealed text
/// copied into another user's row or another note fails to open.
struct TextCipher: Sendable {
    /// A sealed text and the ID of the key that sealed it.
    struct Sealed: Sendable, Equatable {
        var keyID: Int64
        var combined: Data
    }

    enum Failure: Error, CustomStringConvertible {
        case unknownKey(Int64)
        case cannotOpen(keyID: Int64)

        var description: String {
            switch self {
            case .unknownKey(let id): "data was sealed with text key \(id), which is not configured"
            case .cannotOpen(let id): "data sealed with text key \(id) fails authentication"
            }
        }
    }

    private let keys: [Int64: SecretKey]
    let currentKeyID: Int64

    init(keys: [Int64: SecretKey], currentKeyID: Int64) {
        self.keys = keys
        self.currentKeyID = currentKeyID
    }

    func seal(_ text: String, userID: Int64, noteID: Int64) throws -> Sealed {
        try seal(Data(text.utf8), associatedData: Self.associatedData(userID, noteID))
    }

    func open(_ sealed: Sealed, userID: Int64, noteID: Int64) throws -> String {
        String(decoding: try open(sealed, associatedData: Self.associatedData(userID, noteID)), as: UTF8.self)
    }

    /// Seals any bytes with the current key; `associatedData` binds them to where they belong.
    func seal(_ plain: Data, associatedData: Data) throws -> Sealed {
        guard let key = keys[currentKeyID] else { throw Failure.unknownKey(currentKeyID) }
        let box = try AES.GCM.seal(plain, using: key.key, authenticating: associatedData)
        guard let combined = box.combined else { throw Failure.cannotOpen(keyID: currentKeyID) }
        return Sealed(keyID: currentKeyID, combined: combined)
    }

    /// Opens bytes sealed by ``seal(_:associatedData:)`` with any configured key.
    func open(_ sealed: Sealed, associatedData: Data) throws -> Data {
        guard let key = keys[sealed.keyID] else { throw Failure.unknownKey(sealed.keyID) }
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed.combined), using: key.key, authenticating: associatedData)
        } catch {
            throw Failure.cannotOpen(keyID: sealed.keyID)
        }
    }

    private static func associatedData(_ userID: Int64, _ noteID: Int64) -> Data {
        Data("\(userID):\(noteID)".utf8)
    }
}
