import ExampleTestSupport
import Foundation
import Synchronization
import VesperSync

/// An in-memory server that follows `Examples/Vesper/PROTOCOL.md` closely enough for client tests:
/// accounts and tokens, tags, tombstones, the per-property notes merge, blobs. It is a transport, so no sockets are involved. Every request is recorded.
final class FakeVesperServer: VSHTTPTransport {
    struct StoredNote {
        var json: [String: VSJSON]
        var sequence: Int
    }

    struct State {
        var passwords: [String: String] = [:]
        var tokens: [String: String] = [:]            // token → username
        var tokenCount = 0
        var tags: [String: [String: VSJSON]] = [:]    // "user|uniqueID" → tag
        var notes: [String: StoredNote] = [:]         // "user|noteID" → note
        var tombstones: [String: Set<Int64>] = [:]
        var blobs: [String: Data] = [:]               // "user|name" → bytes
        var sequence = 0
        var requests: [VSHTTPRequest] = []
        var clockOffset: TimeInterval = 0
    }

    let state = Mutex(State())
    /// The clock of the `Date` header; the real clock when nil.
    let clock: TestClock?

    init(clock: TestClock? = nil) {
        self.clock = clock
    }
    static let root = URL(string: "http://fake.invalid/")!

    var requests: [VSHTTPRequest] { state.withLock { $0.requests } }
    func requests(to path: String) -> [VSHTTPRequest] { requests.filter { $0.url.path.hasSuffix(path) } }

    /// Every token stops working (as if they expired).
    func expireTokens() { state.withLock { $0.tokens = [:] } }

    /// The server's clock runs this far from the test's.
    func setClockOffset(_ seconds: TimeInterval) { state.withLock { $0.clockOffset = seconds } }

    /// The user's notes: noteID → the stored JSON object.
    func notes(of user: String) -> [Int64: [String: VSJSON]] {
        state.withLock { state in
            var found: [Int64: [String: VSJSON]] = [:]
            for (key, note) in state.notes where key.hasPrefix(user + "|") {
                if let id = note.json["noteID"]?.integer { found[id] = note.json }
            }
            return found
        }
    }

    func send(_ request: VSHTTPRequest) async throws -> VSHTTPResponse {
        state.withLock { state in
            state.requests.append(request)
            var response = Self.handle(request, &state)
            let date = (clock?.date ?? Date()).addingTimeInterval(state.clockOffset)
            response.headers["date"] = VSSyncDate.httpString(from: date)
            return response
        }
    }

    // MARK: Routing

    private static func handle(_ request: VSHTTPRequest, _ state: inout State) -> VSHTTPResponse {
        let path = request.url.path.lowercased()
        if path.hasPrefix("/blobstore/") { return putBlob(request, &state) }
        switch path {
        case "/api/createaccount": return createAccount(request, &state)
        case "/api/login": return login(request, &state)
        default: break
        }
        guard let token = request.headers["x-zumo-auth"], let user = state.tokens[token] else {
            return VSHTTPResponse(statusCode: 401)
        }
        let body = request.body.flatMap { try? VSJSON.parse($0) }
        switch path {
        case "/api/tags": return tags(body?.array ?? [], user: user, &state)
        case "/api/deletednotes": return deletedNotes(body?.array ?? [], user: user, &state)
        case "/api/notes": return notes(body?.array ?? [], token: request.headers["x-vesper-synctoken"], user: user, &state)
        case "/api/blobs/list":
            let names = state.blobs.keys.filter { $0.hasPrefix(user + "|") }.map { String($0.dropFirst(user.count + 1)) }.sorted()
            return json(.array(names.map { .object(["name": .string($0), "contentType": .string("image/png")]) }))
        case "/api/blobs/urlforuploading":
            guard let name = query(request.url)["filename"] else { return VSHTTPResponse(statusCode: 400) }
            return json(.object(["url": .string(root.absoluteString + "blobstore/\(user)/\(name)")]))
        case "/api/blobs/download":
            guard let name = query(request.url)["filename"], let data = state.blobs[user + "|" + name] else { return VSHTTPResponse(statusCode: 404) }
            return VSHTTPResponse(statusCode: 200, headers: ["content-type": "image/png"], body: data)
        default:
            return VSHTTPResponse(statusCode: 404)
        }
    }

    // MARK: Accounts

    private static func credentials(_ request: VSHTTPRequest) -> (String, String)? {
        guard let header = request.headers["Authorization"], header.hasPrefix("Basic "),
              let data = Data(base64Encoded: String(header.dropFirst(6))),
              let decoded = String(data: data, encoding: .utf8), let colon = decoded.firstIndex(of: ":") else { return nil }
        return (decoded[..<colon].lowercased(), String(decoded[decoded.index(after: colon)...]))
    }

    private static func createAccount(_ request: VSHTTPRequest, _ state: inout State) -> VSHTTPResponse {
        guard let (user, password) = credentials(request) else { return VSHTTPResponse(statusCode: 400) }
        guard state.passwords[user] == nil else { return VSHTTPResponse(statusCode: 400, body: Data("VSErrorUsernameAlreadyExists".utf8)) }
        state.passwords[user] = password
        return VSHTTPResponse(statusCode: 204)
    }

    private static func login(_ request: VSHTTPRequest, _ state: inout State) -> VSHTTPResponse {
        guard let (user, password) = credentials(request) else { return VSHTTPResponse(statusCode: 400) }
        guard state.passwords[user] == password else { return VSHTTPResponse(statusCode: 401) }
        state.tokenCount += 1
        let token = "token-\(state.tokenCount)"
        state.tokens[token] = user
        return json(.object(["token": .string(token), "emailUpdates": .bool(false)]))
    }

    // MARK: Tags (answering 200 with an array in every case)

    private static func tags(_ incoming: [VSJSON], user: String, _ state: inout State) -> VSHTTPResponse {
        var response: [VSJSON] = []
        var sent: Set<String> = []
        for element in incoming {
            guard let tag = try? VSSyncTag(json: element) else { continue }
            let key = user + "|" + tag.uniqueID
            sent.insert(tag.uniqueID)
            let incomingDate = tag.nameModificationDate ?? VSSyncNote.oldDate
            if let stored = state.tags[key] {
                let storedDate = stored["nameModificationDate"]?.string.flatMap(VSSyncDate.date(from:)) ?? VSSyncNote.oldDate
                if VSSyncDate.milliseconds(incomingDate) < VSSyncDate.milliseconds(storedDate) {
                    response.append(.object(stored))
                } else if VSSyncDate.milliseconds(incomingDate) > VSSyncDate.milliseconds(storedDate) {
                    state.tags[key] = serverTag(tag, date: incomingDate)
                }
            } else {
                state.tags[key] = serverTag(tag, date: incomingDate)
            }
        }
        for (key, stored) in state.tags where key.hasPrefix(user + "|") && !sent.contains(String(key.dropFirst(user.count + 1))) {
            response.append(.object(stored))
        }
        return json(.array(response))
    }

    private static func serverTag(_ tag: VSSyncTag, date: Date) -> [String: VSJSON] {
        ["uniqueID": .string(tag.uniqueID), "name": .string(tag.name), "nameModificationDate": .string(VSSyncDate.string(from: date))]
    }

    // MARK: Tombstones (in one step)

    private static func deletedNotes(_ incoming: [VSJSON], user: String, _ state: inout State) -> VSHTTPResponse {
        let existing = state.tombstones[user] ?? []
        for id in incoming.compactMap(\.integer) {
            state.tombstones[user, default: []].insert(id)
            state.notes[user + "|\(id)"] = nil
        }
        return json(.array(existing.sorted().map(VSJSON.integer)))
    }

    // MARK: Notes (a change sequence in place of serverModificationDate)

    static let mergedProperties = [
        ("text", "textModificationDate"), ("archived", "archivedModificationDate"), ("sortDate", "sortDateModificationDate"),
        ("tags", "tagsModificationDate"), ("attachments", "attachmentsModificationDate"),
    ]

    private static func notes(_ incoming: [VSJSON], token: String?, user: String, _ state: inout State) -> VSHTTPResponse {
        let since = token.flatMap { Int($0.dropFirst("seq:".count)) } ?? -1
        let tombstones = state.tombstones[user] ?? []
        state.sequence += 1
        let sequence = state.sequence
        for case .object(let note) in incoming {
            guard let id = note["noteID"]?.integer, id != 0, !tombstones.contains(id) else { continue }
            let key = user + "|\(id)"
            guard var stored = state.notes[key] else {
                state.notes[key] = StoredNote(json: note, sequence: sequence)
                continue
            }
            var changed = false
            for (property, dateKey) in mergedProperties {
                let incomingDate = note[dateKey]?.string.flatMap(VSSyncDate.date(from:))
                let storedDate = stored.json[dateKey]?.string.flatMap(VSSyncDate.date(from:))
                if VSSyncDate.serverWins(incomingDate, over: storedDate) {
                    stored.json[property] = note[property] ?? .null
                    stored.json[dateKey] = note[dateKey]
                    changed = true
                }
            }
            if changed {
                stored.sequence = sequence
                state.notes[key] = stored
            }
        }
        let changed = state.notes.filter { $0.key.hasPrefix(user + "|") && $0.value.sequence > since }
            .map(\.value.json).filter { !tombstones.contains($0["noteID"]?.integer ?? 0) }
        var response = changed.isEmpty ? VSHTTPResponse(statusCode: 204) : json(.array(changed.map(VSJSON.object)))
        response.headers["x-vesper-synctoken"] = "seq:\(sequence)"
        return response
    }

    // MARK: Blobs

    private static func putBlob(_ request: VSHTTPRequest, _ state: inout State) -> VSHTTPResponse {
        let parts = request.url.path.split(separator: "/")
        guard request.method == "PUT", parts.count == 3, let body = request.body else { return VSHTTPResponse(statusCode: 400) }
        state.blobs["\(parts[1])|\(parts[2])"] = body
        return VSHTTPResponse(statusCode: 201)
    }

    // MARK: Helpers

    private static func json(_ value: VSJSON) -> VSHTTPResponse {
        VSHTTPResponse(statusCode: 200, headers: ["content-type": "application/json; charset=utf-8"], body: (try? value.data()) ?? Data())
    }

    private static func query(_ url: URL) -> [String: String] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.compactMap { item in item.value.map { (item.name, $0) } }, uniquingKeysWith: { first, _ in first })
    }
}
