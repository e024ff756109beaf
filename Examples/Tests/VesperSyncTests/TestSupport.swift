import ExampleTestSupport
import Foundation
import Synchronization
import Testing
import VesperCore
import VesperSync

extension TestFolder {
    /// A database in its own subfolder (each client has its own attachments folder).
    func databaseURL(_ name: String) throws -> URL {
        try subfolder(name).appendingPathComponent("vesper.sqlite")
    }
}

/// One client: a database, its data controller and its account.
@MainActor
struct TestClient {
    let name: String
    let vesper: VSDataController
    let account: VSAccount

    static func open(_ name: String, in folder: TestFolder, transport: any VSHTTPTransport, clock: TestClock) async throws -> TestClient {
        let vesper = try await VSDataController.open(at: try folder.databaseURL(name))
        let account = try VSAccount(dataController: vesper, transport: transport)
        account.deviceNow = { clock.date }
        return TestClient(name: name, vesper: vesper, account: account)
    }

    /// Every note, comparable across clients: ID → (text, archived, tag names, attachment IDs).
    func noteSet() async throws -> [Int64: NoteSummary] {
        Dictionary(uniqueKeysWithValues: try await vesper.allNotes().map { ($0.uniqueID, NoteSummary($0)) })
    }

    func close() async throws {
        try await vesper.close()
    }
}

/// What must agree between clients and the server for a note. Tags are compared by uniqueID:
/// a case-only rename travels through the tags endpoint, and the server never rewrites the tag
/// names inside the notes it stores.
struct NoteSummary: Equatable, CustomStringConvertible {
    var text: String
    var archived: Bool
    var tags: [String]
    var attachments: [String]

    @MainActor init(_ note: VSNote) {
        self.init(text: note.text, archived: note.archived, tags: note.tags.map(\.name), attachments: note.attachments.map(\.uniqueID))
    }

    init(text: String, archived: Bool, tags: [String], attachments: [String]) {
        self.text = text
        self.archived = archived
        self.tags = tags.map(VSTag.uniqueID(forName:))
        self.attachments = attachments
    }

    init(_ note: VSSyncNote) {
        self.init(text: note.text ?? "", archived: note.archived, tags: note.tagNames, attachments: note.attachments.map(\.uniqueID))
    }

    var description: String { "\(text.debugDescription) archived=\(archived) tags=\(tags) attachments=\(attachments)" }
}

/// Responds from a script: each request is handed to `respond`. Records every request.
final class ScriptedTransport: VSHTTPTransport {
    private let log = Mutex<[VSHTTPRequest]>([])
    private let respond: @Sendable (VSHTTPRequest) -> VSHTTPResponse

    init(_ respond: @escaping @Sendable (VSHTTPRequest) -> VSHTTPResponse) {
        self.respond = respond
    }

    var requests: [VSHTTPRequest] { log.withLock { $0 } }

    func send(_ request: VSHTTPRequest) async throws -> VSHTTPResponse {
        log.withLock { $0.append(request) }
        return respond(request)
    }
}

extension VSHTTPResponse {
    static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> VSHTTPResponse {
        VSHTTPResponse(statusCode: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: Data(text.utf8))
    }
}

/// A 1×1 PNG.
enum SampleImages {
    static let png = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
        0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
        0x42, 0x60, 0x82,
    ])
}

func wireDate(_ string: String) throws -> Date {
    try #require(VSSyncDate.date(from: string))
}
