import PostgresStore
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

/// The PostgreSQL store holds the same port contracts as the SQLite store, the remote store and
/// the in-memory double, on a database of its own per case. The machine's stored session
/// (`sessions`) is the terminal's, not a server's: its cases are not this store's.
@Suite("Port contracts: PostgreSQL", .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresContractTests {
    static let serverCases = ContractCase.all.filter { $0.port != "sessions" } + ContractCase.learning + ContractCase.operations

    @Test("PostgreSQL store", arguments: serverCases)
    func contract(_ contract: ContractCase) async throws {
        let test = try await PostgresTestDatabase.migrated()
        do {
            try await contract.run(.postgres(test.database))
        } catch {
            await test.drop()
            throw error
        }
        await test.drop()
    }
}

@Suite("PostgreSQL in CI")
struct PostgresInCITests {
    @Test("CI always has a cluster for the PostgreSQL tests (EDUGO_TEST_POSTGRES), so they never skip there")
    func clusterInCI() {
        #expect(PostgresTestCluster.isAvailable || !PostgresTestCluster.isRequired)
    }
}
