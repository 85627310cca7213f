import Foundation
import Logging
import Platform
import PostgresStore
import SharedKernel
import Storage
import TestSupport

/// The PostgreSQL cluster the tests use: `EDUGO_TEST_POSTGRES` names its administrative URL
/// (`.ci/run` starts a throwaway cluster and sets it; README says how to run one locally).
/// Without it the PostgreSQL tests are skipped, except in CI, where a missing cluster fails.
public enum PostgresTestCluster {
    public static var adminURL: String? {
        ProcessInfo.processInfo.environment["EDUGO_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public static var isAvailable: Bool { adminURL != nil }

    /// CI must run the PostgreSQL tests, never skip them.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] != nil }
}

/// A database of its own for one test, on the test cluster, dropped by `drop()`; its pool runs
/// until then.
public final class PostgresTestDatabase: Sendable {
    public let name: String
    public let url: String
    public let database: PostgresDatabase
    private let pool: Task<Void, Never>

    /// A new, empty database (not migrated), its sessions started with `settings` (names and
    /// values of the test's own, set before any connection to it).
    public static func create(settings: [(name: String, value: String)] = []) async throws -> PostgresTestDatabase {
        guard let admin = PostgresTestCluster.adminURL else { throw ServerTestError("EDUGO_TEST_POSTGRES is not set") }
        let name = "edugo_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try await Self.administer(admin, "CREATE DATABASE \(name)")
        for setting in settings {
            try await Self.administer(
                admin, "ALTER DATABASE \(name) SET \(setting.name) = '\(setting.value.replacingOccurrences(of: "'", with: "''"))'")
        }
        guard var url = URLComponents(string: admin) else { throw ServerTestError("EDUGO_TEST_POSTGRES is not a URL") }
        url.path = "/\(name)"
        return try PostgresTestDatabase(name: name, url: url.string ?? admin)
    }

    /// A new database, migrated: the demo learner (hashed cheaply), and `courses`.
    public static func migrated(
        courses: [(course: Course, lessons: [Lesson]?)] = [], settings: [(name: String, value: String)] = []
    ) async throws -> PostgresTestDatabase {
        let test = try await create(settings: settings)
        let hasher = TestPasswordHasher.cheap
        try await test.database.migrate {
            PostgresSeed(
                courses: courses, demoName: DemoAccount.name, demoEmail: DemoAccount.email,
                demoPasswordHash: try hasher.hash(DemoAccount.password))
        }
        return test
    }

    /// A new database, migrated and seeded as a server seeds a new one: the built-in catalog
    /// and the demo learner (with the demo's progress).
    public static func seeded() async throws -> PostgresTestDatabase {
        try await migrated(courses: try BuiltInCatalog.load().map { (course: $0.course, lessons: $0.lessons) })
    }

    private init(name: String, url: String) throws {
        self.name = name
        self.url = url
        var logger = Logger(label: "edugo-tests-postgres")
        logger.logLevel = .critical
        let database = try PostgresDatabase(url: url, logger: logger)
        self.database = database
        pool = Task { await database.run() }
    }

    /// Stops the pool and drops the database (even while servers still hold connections).
    public func drop() async {
        pool.cancel()
        _ = await pool.value
        guard let admin = PostgresTestCluster.adminURL else { return }
        try? await Self.administer(admin, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// The database as if its server went away (`false`: every connection to it is ended and
    /// no new one is let in) or came back (`true`), while the cluster serves other tests.
    public func setReachable(_ reachable: Bool) async throws {
        guard let admin = PostgresTestCluster.adminURL else { throw ServerTestError("EDUGO_TEST_POSTGRES is not set") }
        try await Self.administer(admin, "ALTER DATABASE \(name) ALLOW_CONNECTIONS \(reachable)")
        if !reachable {
            try await Self.administer(admin, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
        }
    }

    /// One statement on the cluster's own database, on a connection of its own.
    private static func administer(_ admin: String, _ sql: String) async throws {
        var logger = Logger(label: "edugo-tests-postgres-admin")
        logger.logLevel = .critical
        let database = try PostgresDatabase(url: admin, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await database.run() }
            defer { group.cancelAll() }
            try await database.execute(sql)
        }
    }
}

/// The app's hashing at a cost tests can afford.
public enum TestPasswordHasher {
    public static let cheap = PasswordHasher(rounds: 1_000)
}

/// Who a test signed in, over a server-side account store: what `Contract.demo` needs of a
/// store that has no session of a machine (the PostgreSQL store is a server's).
public actor AccountSessions: SessionRepository {
    private let accounts: any AccountRepository
    private var signedIn: User?

    public init(accounts: any AccountRepository) {
        self.accounts = accounts
    }

    public func restoreSession() async throws(AppError) -> User? { signedIn }

    public func signIn(email: String, password: String) async throws(AppError) -> User {
        let user = try await accounts.authenticate(email: email, password: password)
        signedIn = user
        return user
    }

    public func createAccount(name: String, email: String, password: String) async throws(AppError) -> User {
        let user = try await accounts.register(name: name, email: email, password: password)
        signedIn = user
        return user
    }

    public func signOut(userID: UserID) async throws(AppError) {
        if signedIn?.id == userID { signedIn = nil }
    }
}

extension ContractStore {
    /// The PostgreSQL store under the port contracts (its accounts signed in by `AccountSessions`).
    public static func postgres(_ database: PostgresDatabase) -> ContractStore {
        let accounts = AccountService(store: PostgresAccountStore(database: database), hasher: TestPasswordHasher.cheap)
        let clock = SteppingClock()
        return ContractStore(
            courses: PostgresCourseRepository(database: database),
            enrollments: PostgresEnrollmentRepository(database: database, now: { clock.now() }),
            favourites: PostgresFavouritesRepository(database: database),
            profiles: PostgresProfileRepository(database: database),
            sessions: AccountSessions(accounts: accounts),
            accounts: accounts,
            refreshTokens: PostgresRefreshTokenRepository(database: database),
            changes: PostgresChangeLog(database: database),
            learning: PostgresLearningRepository(database: database, now: { clock.now() }),
            operations: PostgresOperationRepository(database: database, now: { clock.now() }),
            addCourses: { entries in _ = try await database.importCourses(entries.map { (course: $0.0, lessons: $0.1) }) }
        )
    }
}
