import Foundation
import Platform
import Server
import SharedKernel
import Storage

extension PlatformStores {
    /// The embedded store; the signing key is a file in the data directory.
    public static func sqlite(
        _ database: AppDatabase, dataDirectory: URL, passwordHasher: PasswordHasher, now: @escaping @Sendable () -> Date
    ) throws -> PlatformStores {
        PlatformStores(
            courses: SQLiteCourseRepository(database: database),
            enrollments: SQLiteEnrollmentRepository(database: database, now: now),
            favourites: SQLiteFavouritesRepository(database: database),
            profiles: SQLiteProfileRepository(database: database),
            learning: SQLiteLearningRepository(database: database, now: now),
            operations: SQLiteOperationRepository(database: database, now: now),
            accounts: AccountService(store: SQLiteAccountStore(database: database), hasher: passwordHasher),
            refreshTokens: SQLiteRefreshTokenRepository(database: database),
            signingKey: try SigningKey.loadOrCreate(in: dataDirectory),
            // One process: failed sign-ins are counted in its memory.
            signInAttempts: nil,
            // Woken by the file's events, which can come before the commit is readable.
            changes: SQLiteChangeLog(database: database, waitsForWriters: true),
            changeWakeups: SQLiteChangeSignal(database: database).wakeups,
            ready: { () async throws(AppError) in try await database.ping() },
            databaseUse: database.use
        )
    }
}
