import ExampleTestSupport
import Foundation
import QSData
import Testing
import VesperCore
import VesperServerKit
import VesperSync

/// Two real servers on one PostgreSQL database, 20 devices with the real sync client, each
/// bound to one server: two accounts of ten devices, overlapping edits, tag renames, deletes
/// and pictures, with syncs in random order and in concurrent bursts. At the end every device
/// and the database agree, and every picture uploaded through one server has come down through
/// the other. Needs `VESPER_TEST_POSTGRES_URL`; fails instead of skipping when
/// `VESPER_REQUIRE_POSTGRES=1` (CI).
@MainActor
@Suite(.serialized) struct TwoInstanceTests {
    nonisolated static let postgresURL = ProcessInfo.processInfo.environment["VESPER_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    nonisolated static let postgresRequired = ProcessInfo.processInfo.environment["VESPER_REQUIRE_POSTGRES"] == "1"

    struct Device: Sendable {
        let client: TestClient
        let instance: Int
        let account: Int
    }

    @Test(
        .enabled(
            if: postgresURL != nil || postgresRequired,
            "PostgreSQL tests skipped: set VESPER_TEST_POSTGRES_URL=postgres://user@127.0.0.1:port/database"),
        arguments: [21] as [UInt64])
    func twentyClientsOnTwoInstancesConverge(seed: UInt64) async throws {
        let url = try #require(Self.postgresURL, "VESPER_REQUIRE_POSTGRES=1 but VESPER_TEST_POSTGRES_URL is not set")
        let schema = try await VesperTestSchema.create(serverURL: url)
        let instances = [
            try await RealHarness.start(database: schema.database), try await RealHarness.start(database: schema.database),
        ]
        let clock = TestClock(start: Date())
        let folder = try TestFolder()
        var random = SeededGenerator(seed: seed)
        let accounts = ["alice@example.com", "bob@example.com"]
        let password = "correct horse"

        // Devices 0 and 1 create the accounts (through different instances); the rest log in.
        var devices: [Device] = []
        for index in 0..<20 {
            let instance = instances[index % 2]
            let client = try await TestClient.open("device\(index)", in: folder, transport: instance.transport, clock: clock)
            let account = index / 10
            if index % 10 == 0 {
                try await client.account.createAccount(server: instance.url, username: accounts[account], password: password)
            } else {
                try await client.account.login(server: instance.url, username: accounts[account], password: password)
            }
            devices.append(Device(client: client, instance: index % 2, account: account))
        }

        for step in 0..<240 {
            // 50 ms a step keeps the devices' clock within seconds of the servers' (the whole run
            // takes about as long), so clock-skew correction stays out of the story.
            clock.advance(0.05)
            if step % 40 == 39 {
                try await Self.syncConcurrently(devices.shuffled(using: &random).prefix(8))
                continue
            }
            let device = devices[Int.random(in: 0..<devices.count, using: &random)]
            if try await !RandomEdit.perform(step: step, on: device.client, random: &random, attachments: folder) {
                try await Self.sync(device)
            }
            try await device.client.vesper.flush()
        }
        // Settle: three rounds in which every device syncs, in random order.
        for _ in 0..<3 {
            for device in devices.shuffled(using: &random) { try await Self.sync(device) }
        }

        for account in 0..<2 {
            let group = devices.filter { $0.account == account }
            let expected = try await group[0].client.noteSet()
            #expect(!expected.isEmpty)
            for device in group {
                let notes = try await device.client.noteSet()
                let differing = Set(notes.keys).union(expected.keys).filter { notes[$0] != expected[$0] }.sorted()
                #expect(
                    notes == expected,
                    "\(device.client.name): \(differing.map { "\($0): \(notes[$0]?.description ?? "absent") vs \(expected[$0]?.description ?? "absent")" })")
                #expect(
                    try device.client.vesper.tags().map(\.name).sorted()
                        == group[0].client.vesper.tags().map(\.name).sorted(), "\(device.client.name)")
                // Every picture on every note came down, whichever instance it went up through.
                for note in try await device.client.vesper.allNotes() {
                    for attachment in note.attachments {
                        let bytes = try #require(device.client.vesper.attachmentStorage.file(for: attachment)).read()
                        #expect(bytes == SampleImages.png, "\(device.client.name) \(attachment.uniqueID)")
                    }
                }
            }
            for instance in instances {
                #expect(try await serverNoteSet(instance, username: accounts[account], password: password) == expected)
            }
            // The database: the same note IDs, no note that is also tombstoned, one blob row per picture.
            let userID = account + 1
            let stored = try await schema.rows("SELECT noteID FROM notes WHERE userID = \(userID) ORDER BY noteID")
            #expect(stored == expected.keys.sorted().map { [.integer($0)] })
            #expect(
                try await schema.rows(
                    """
                    SELECT count(*) FROM notes n JOIN deletedNotes d ON d.userID = n.userID AND d.noteID = n.noteID
                    """) == [[0]])
            let pictures = Set(expected.values.flatMap(\.attachments))
            let blobs = try await schema.rows("SELECT name FROM blobBytes WHERE userID = \(userID)")
            #expect(pictures.isSubset(of: Set(blobs.compactMap { if case .text(let name) = $0.first { name } else { nil } })))
        }
        let crossInstance = try await schema.rows("SELECT count(*) FROM blobBytes")
        #expect(crossInstance != [[0]], "no picture was uploaded: the scenario proves nothing about blobs")

        for device in devices { try await device.client.close() }
        for instance in instances { try await instance.stop() }
        try await schema.drop()
    }

    static func sync(_ device: Device) async throws {
        let report = try await device.client.account.syncNow()
        #expect(report.failures == [], "\(device.client.name): \(report.failures)")
    }

    /// Several devices sync at once (their requests interleave on both instances).
    static func syncConcurrently(_ devices: ArraySlice<Device>) async throws {
        let syncs = devices.map { device in Task { try await sync(device) } }
        for sync in syncs { try await sync.value }
    }
}
