import Foundation
import Platform
import PostgresStore
import SharedKernel
import Storage

/// The ports a server runs on, and what its processes must share: one SQLite database in a
/// data directory (one process), or one PostgreSQL database (any number of processes).
struct PlatformStores: Sendable {
    var courses: any CourseRepository
    var enrollments: any EnrollmentRepository
    var favourites: any FavouritesRepository
    var profiles: any ProfileRepository
    var learning: any LearningRepository
    var accounts: any AccountRepository
    var refreshTokens: any RefreshTokenRepository
    var signingKey: [UInt8]
    var signInLimiter: SignInRateLimiter
    /// What the writes above noted, and what wakes whoever reads it when any process writes.
    var changes: any ChangeLog
    var changeWakeups: @Sendable () -> AsyncStream<Void>
    /// Whether the database answers now (`GET /ready`).
    var ready: @Sendable () async throws(AppError) -> Void
    /// The pool's connections in use and waited for (metrics).
    var databaseUse: DatabaseUse

    /// The embedded store; the signing key is a file in the data directory.
    static func sqlite(_ database: AppDatabase, dataDirectory: URL, passwordHasher: PasswordHasher, now: @escaping @Sendable () -> Date)
        throws -> PlatformStores
    {
        PlatformStores(
            courses: SQLiteCourseRepository(database: database),
            enrollments: SQLiteEnrollmentRepository(database: database, now: now),
            favourites: SQLiteFavouritesRepository(database: database),
            profiles: SQLiteProfileRepository(database: database),
            learning: SQLiteLearningRepository(database: database, now: now),
            accounts: AccountService(store: SQLiteAccountStore(database: database), hasher: passwordHasher),
            refreshTokens: SQLiteRefreshTokenRepository(database: database),
            signingKey: try SigningKey.loadOrCreate(in: dataDirectory),
            signInLimiter: SignInRateLimiter(now: now),
            // Woken by the file's events, which can come before the commit is readable.
            changes: SQLiteChangeLog(database: database, waitsForWriters: true),
            changeWakeups: SQLiteChangeSignal(database: database).wakeups,
            ready: { () async throws(AppError) in try await database.ping() },
            databaseUse: database.use
        )
    }

    /// PostgreSQL: the signing key, the refresh tokens and the failed sign-ins live in the
    /// database, so every server process is the same platform.
    static func postgres(_ database: PostgresDatabase, passwordHasher: PasswordHasher, now: @escaping @Sendable () -> Date) async throws
        -> PlatformStores
    {
        PlatformStores(
            courses: PostgresCourseRepository(database: database),
            enrollments: PostgresEnrollmentRepository(database: database, now: now),
            favourites: PostgresFavouritesRepository(database: database),
            profiles: PostgresProfileRepository(database: database),
            learning: PostgresLearningRepository(database: database, now: now),
            accounts: AccountService(store: PostgresAccountStore(database: database), hasher: passwordHasher),
            refreshTokens: PostgresRefreshTokenRepository(database: database),
            signingKey: try await database.signingKey(),
            signInLimiter: SignInRateLimiter(log: PostgresSignInAttempts(database: database), now: now),
            changes: PostgresChangeLog(database: database),
            changeWakeups: PostgresChangeSignal(database: database).wakeups,
            ready: { () async throws(AppError) in try await database.ping() },
            databaseUse: database.use
        )
    }

    /// What a new PostgreSQL database starts with: the built-in catalog and the demo learner.
    static func postgresSeed(passwordHasher: PasswordHasher) throws -> PostgresSeed {
        PostgresSeed(
            courses: try BuiltInCatalog.load().map { ($0.course, $0.lessons) },
            demoName: DemoAccount.name, demoEmail: DemoAccount.email, demoPasswordHash: try passwordHasher.hash(DemoAccount.password)
        )
    }
}
