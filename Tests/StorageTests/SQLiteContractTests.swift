import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

/// The SQLite store holds every port's contract, the same expectations the in-memory double
/// (and the remote and PostgreSQL stores) are held to.
@Suite("Port contracts: SQLite")
struct SQLiteContractTests {
    @Test("SQLite store", arguments: ContractCase.all + ContractCase.learning + ContractCase.operations)
    func contract(_ contract: ContractCase) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })

        try await contract.run(.sqlite(database))
    }
}
