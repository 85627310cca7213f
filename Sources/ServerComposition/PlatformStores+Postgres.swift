import Foundation
import Platform
import PostgresStore
import Server
import SharedKernel

extension PlatformStores {
    /// PostgreSQL: the signing key, the refresh tokens and the failed sign-ins live in the
    /// database, so every server process is the same platform.
    public static func postgres(_ database: PostgresDatabase, passwordHasher: PasswordHasher, now: @escaping @Sendable () -> Date)
        async throws -> PlatformStores
    {
        PlatformStores(
            courses: PostgresCourseRepository(database: database),
            enrollments: PostgresEnrollmentRepository(database: database, now: now),
            favourites: PostgresFavouritesRepository(database: database),
            profiles: PostgresProfileRepository(database: database),
            learning: PostgresLearningRepository(database: database, now: now),
            operations: PostgresOperationRepository(database: database, now: now),
            accounts: AccountService(store: PostgresAccountStore(database: database), hasher: passwordHasher),
            refreshTokens: PostgresRefreshTokenRepository(database: database),
            signingKey: try await database.signingKey(),
            signInAttempts: PostgresSignInAttempts(database: database),
            changes: PostgresChangeLog(database: database),
            changeWakeups: PostgresChangeSignal(database: database).wakeups,
            ready: { () async throws(AppError) in try await database.ping() },
            databaseUse: database.use
        )
    }

    /// What a new PostgreSQL database starts with: the built-in catalog and the demo learner.
    public static func postgresSeed(passwordHasher: PasswordHasher) throws -> PostgresSeed {
        PostgresSeed(
            courses: try BuiltInCatalog.load().map { ($0.course, $0.lessons) },
            demoName: DemoAccount.name, demoEmail: DemoAccount.email, demoPasswordHash: try passwordHasher.hash(DemoAccount.password)
        )
    }
}
