import Crypto
import Foundation

/// Note text encryption at rest (PROTOCOL.md, "Privacy and isolation on the server").
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
            case .unknownKey(let id): "note text was sealed with text key \(id), which is not configured"
            case .cannotOpen(let id): "note text sealed with text key \(id) fails authentication"
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
        guard let key = keys[currentKeyID] else { throw Failure.unknownKey(currentKeyID) }
        let box = try AES.GCM.seal(Data(text.utf8), using: key.key, authenticating: Self.associatedData(userID, noteID))
        guard let combined = box.combined else { throw Failure.cannotOpen(keyID: currentKeyID) }
        return Sealed(keyID: currentKeyID, combined: combined)
    }

    func open(_ sealed: Sealed, userID: Int64, noteID: Int64) throws -> String {
        guard let key = keys[sealed.keyID] else { throw Failure.unknownKey(sealed.keyID) }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed.combined)
            let plain = try AES.GCM.open(box, using: key.key, authenticating: Self.associatedData(userID, noteID))
            return String(decoding: plain, as: UTF8.self)
        } catch {
            throw Failure.cannotOpen(keyID: sealed.keyID)
        }
    }

    private static func associatedData(_ userID: Int64, _ noteID: Int64) -> Data {
        Data("\(userID):\(noteID)".utf8)
    }
}
