import Foundation
import SharedKernel
import TestSupport
import Testing

/// The offline week (`SyncSimulation`) on the in-memory double: several seeds, thousands of
/// operations each, since a seed costs little here.
@Suite("Sync simulation: in memory")
struct InMemorySyncSimulationTests {
    @Test("three terminals, a week offline, a lossy network: nothing lost or doubled", arguments: [1, 2, 3, 4] as [UInt64])
    func week(seed: UInt64) async throws {
        try await SyncSimulation(seed: seed).run { .inMemory() }
    }
}
