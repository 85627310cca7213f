import Platform
import RemoteStore
import SharedKernel
import TestSupport
import Testing

@testable import Storage

/// The remote store holds the same port contracts as the SQLite store and the in-memory
/// double, through a real server on a loopback port. The server-side ports (accounts,
/// refresh tokens) are the server's own and are held to their contract on SQLite.
@Suite("Port contracts: remote")
struct RemoteContractTests {
    static let clientCases =
        ContractCase.all.filter { !["accounts", "refreshTokens"].contains($0.port) } + ContractCase.learning + ContractCase.operations

    @Test("remote store", arguments: clientCases)
    func contract(_ contract: ContractCase) async throws {
        let server = try await InProcessServer.start()
        let client = TemporaryDirectory(prefix: "edugo-remote-client")
        defer {
            client.remove()
            server.directory.remove()
        }
        let store = RemoteStore(server: server.url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
        do {
            try await contract.run(
                ContractStore(
                    courses: store, enrollments: store, favourites: store, profiles: store, sessions: store,
                    accounts: AccountService(store: SQLiteAccountStore(database: server.database), hasher: PasswordHasher(rounds: 1_000)),
                    refreshTokens: SQLiteRefreshTokenRepository(database: server.database),
                    // The server's own log: what the API's writes noted there.
                    changes: SQLiteChangeLog(database: server.database),
                    learning: store,
                    operations: store,
                    addCourses: { try await server.addCoursesRead($0) }
                )
            )
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
