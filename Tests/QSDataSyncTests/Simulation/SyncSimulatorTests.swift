import Foundation
import Testing

/// The deterministic sync simulator: for each seed, replicas edit, reorder and delete through a
/// misbehaving network with skewed clocks, and once the network heals and rounds of syncs send
/// nothing more, all of them and the server hold the same data, and no deleted object exists. CI runs a bounded
/// number of seeds; `QSDATA_SYNC_SEEDS=1,2,3` (or `1-200`) runs others.
@MainActor
struct SyncSimulatorTests {
    nonisolated static var seeds: [UInt64] {
        guard let text = ProcessInfo.processInfo.environment["QSDATA_SYNC_SEEDS"] else { return Array(1...60) }
        return text.split(separator: ",").flatMap { part -> [UInt64] in
            let bounds = part.split(separator: "-").compactMap { UInt64($0) }
            return bounds.count == 2 ? Array(bounds[0]...bounds[1]) : bounds
        }
    }

    @Test(arguments: seeds)
    func replicasConvergeAfterTheNetworkHeals(seed: UInt64) async throws {
        let simulation = SyncSimulation(seed: seed)
        let problems = try await simulation.run()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))\n\(simulation.replayInstructions)")
    }

    /// Three accounts sharing a group whose members come and go.
    @Test(arguments: seeds.prefix(30))
    func groupMembersConvergeAfterTheNetworkHeals(seed: UInt64) async throws {
        let simulation = GroupSimulation(seed: seed)
        let problems = try await simulation.run()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))\n\(simulation.replayInstructions)")
    }

    /// The same on Vesper's data model: ordered tags named by their normalised names, and attachments.
    @Test(arguments: seeds.prefix(20))
    func vesperReplicasConvergeAfterTheNetworkHeals(seed: UInt64) async throws {
        let simulation = VesperSimulation(seed: seed)
        let problems = try await simulation.run()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))\n\(simulation.replayInstructions)")
    }
}
