import CommandLineTool
import ExampleTestSupport
import Foundation
import Testing

/// The shared `--database` option and the one open-run-close every tool uses.
@MainActor
@Suite struct DatabaseOptionsTests {
    /// A data controller that remembers being closed, and fails to close when its file says so.
    final class FakeController {
        let failsToClose: Bool
        var isClosed = false

        init(failsToClose: Bool) {
            self.failsToClose = failsToClose
        }
    }

    enum FakeError: Error, CustomStringConvertible {
        case inBody, inClose
        var description: String { self == .inBody ? "the command failed" : "the disk is gone" }
    }

    enum FakeDatabase: OpenableDatabase {
        static let name = "fake"

        static func open(at url: URL) async throws -> FakeController {
            FakeController(failsToClose: url.lastPathComponent == "fails-to-close.sqlite")
        }

        static func close(_ data: FakeController) async throws {
            data.isClosed = true
            if data.failsToClose { throw FakeError.inClose }
        }
    }

    typealias Options = DatabaseOptions<FakeDatabase>

    @Test func theDefaultFollowsXDGDataHome() {
        #expect(Options.defaultDatabaseURL(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]).path == "/data/fake/fake.sqlite")
        #expect(Options.defaultDatabaseURL(environment: ["HOME": "/home/a"]).path == "/home/a/.local/share/fake/fake.sqlite")
    }

    @Test func aGivenPathIsUsedWithItsTildeExpanded() throws {
        #expect(try Options.parse(["--database", "/tmp/notes.sqlite"]).databaseURL.path == "/tmp/notes.sqlite")
        #expect(Options(database: "~/notes.sqlite").databaseURL.path == (NSHomeDirectory() as NSString).appendingPathComponent("notes.sqlite"))
    }

    @Test func theDatabaseIsClosedAfterTheCommandSucceeds() async throws {
        var controller: FakeController?
        let result = try await Options(database: "/tmp/fake.sqlite").withData { data in
            controller = data
            return 42
        }
        #expect(result == 42)
        #expect(controller?.isClosed == true)
    }

    @Test func theDatabaseIsClosedAfterTheCommandFailsAndItsErrorIsReported() async throws {
        var controller: FakeController?
        await #expect(throws: FakeError.inBody) {
            try await Options(database: "/tmp/fake.sqlite").withData { data in
                controller = data
                throw FakeError.inBody
            }
        }
        #expect(controller?.isClosed == true)
    }

    @Test func aFailureToCloseAfterAFailedCommandIsAddedToItsMessage() async throws {
        await #expect(throws: DatabaseError.closeFailed(after: "the command failed", reason: "the disk is gone")) {
            try await Options(database: "/tmp/fails-to-close.sqlite").withData { _ in throw FakeError.inBody }
        }
    }

    @Test func aFailureToCloseAfterASuccessfulCommandIsTheError() async throws {
        await #expect(throws: FakeError.inClose) {
            try await Options(database: "/tmp/fails-to-close.sqlite").withData { _ in }
        }
    }
}
