import CommandLineTool
import ExampleTestSupport
import Foundation
import QSData
import Testing
import VesperCommands
import VesperCore

/// `vesper add` and `vesper sync` run as other processes on the database an open
/// `VSDataController` holds: its timeline and its tag cache follow, unasked.
@MainActor
@Suite(.serialized, .enabled(if: BuiltVesper.url != nil, "the vesper executable was not built"))
struct OtherProcessTests {
    struct TimedOut: Error {}

    @Test func anOpenControllerFollowsAddAndSyncInOtherProcesses() async throws {
        let harness = try await RealHarness.start()
        defer { Task { try? await harness.stop() } }
        let folder = try TestFolder()
        let day = try folder.databaseURL("day").path
        let night = try folder.databaseURL("night").path
        let created = await Vesper.runCapturing(
            ["account", "create", "--server", harness.url.absoluteString, "--username", "dana@example.com", "--database", day],
            standardInput: "a long password\n")
        #expect(created.exitCode == 0, "\(created.errorOutput)")

        let app = try await VSDataController.open(at: URL(fileURLWithPath: day))
        let timeline = try await app.liveTimeline()
        #expect(timeline.objects.isEmpty)
        #expect(try app.tags().isEmpty)
        let changes = app.store.changes

        // Another process adds a note with a new tag.
        try await run(["add", "Buy milk", "--tag", "Errands", "--database", day])
        _ = try await nextChange(on: changes)
        try await timeline.waitUntilCurrent()
        #expect(timeline.objects.map(\.truncatedText) == ["Buy milk"])
        #expect(try app.tags().map(\.name) == ["Errands"])

        // Another device uploads a note; `vesper sync` in another process downloads it.
        let login = await Vesper.runCapturing(
            ["account", "login", "--server", harness.url.absoluteString, "--username", "dana@example.com",
             "--password", "a long password", "--database", night], standardInput: nil)
        #expect(login.exitCode == 0, "\(login.errorOutput)")
        let added = await Vesper.runCapturing(["add", "Book the train", "--tag", "Travel", "--database", night], standardInput: nil)
        #expect(added.exitCode == 0, "\(added.errorOutput)")
        let upload = await Vesper.runCapturing(["sync", "--database", night], standardInput: nil)
        #expect(upload.exitCode == 0, "\(upload.errorOutput)")
        try await run(["sync", "--database", day])
        _ = try await nextChange(on: changes) { $0.insertedIDs(of: VSTimelineNote.self).count == 1 }
        try await timeline.waitUntilCurrent()
        #expect(Set(timeline.objects.map(\.truncatedText)) == ["Buy milk", "Book the train"])
        #expect(try app.tags().map(\.name) == ["Errands", "Travel"])
        try await app.close()
    }

    /// Runs the built `vesper` with `arguments` to its end (killed after 60 s); it must succeed.
    private func run(_ arguments: [String]) async throws {
        let process = try ChildProcess(try #require(BuiltVesper.url as URL?), arguments, standardOutput: .discarded)
        let deadline = ContinuousClock.now + .seconds(60)
        while process.ended == nil {
            guard ContinuousClock.now < deadline else {
                process.kill()
                throw TimedOut()
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let complaint = String(decoding: process.errors?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        #expect(process.ended == .exited(status: 0), "vesper \(arguments.joined(separator: " ")): \(complaint)")
    }

    /// The next change another connection made, matching `matches`, within 30 seconds.
    private func nextChange(
        on changes: AsyncStream<QSChange>, where matches: @escaping @Sendable (QSChange) -> Bool = { _ in true }
    ) async throws -> QSChange {
        try await withThrowingTaskGroup(of: QSChange?.self) { group in
            group.addTask {
                for await change in changes where change.origin == .otherConnection && matches(change) { return change }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                throw TimedOut()
            }
            defer { group.cancelAll() }
            guard let change = try await group.next() ?? nil else { throw TimedOut() }
            return change
        }
    }
}

/// The `vesper` executable the build put beside the test bundle.
enum BuiltVesper {
    static let url: URL? = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent(), folder.deletingLastPathComponent().deletingLastPathComponent()]
        return candidates.map { $0.appendingPathComponent("vesper") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}
