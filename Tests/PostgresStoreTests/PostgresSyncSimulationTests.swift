import PostgresStore
import ServerTestSupport
import SharedKernel
import Synchronization
import TestSupport
import Testing

/// The offline week (`SyncSimulation`) on PostgreSQL, each store a database of its own.
@Suite("Sync simulation: PostgreSQL", .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresSyncSimulationTests {
    @Test("three terminals, a week offline, a lossy network: nothing lost or doubled", arguments: [21] as [UInt64])
    func week(seed: UInt64) async throws {
        let made = Mutex<[PostgresTestDatabase]>([])
        do {
            try await SyncSimulation(seed: seed).run {
                let test = try await PostgresTestDatabase.migrated()
                made.withLock { $0.append(test) }
                return .postgres(test.database)
            }
        } catch {
            for test in made.withLock({ $0 }) { await test.drop() }
            throw error
        }
        for test in made.withLock({ $0 }) { await test.drop() }
    }
}
