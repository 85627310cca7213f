import Foundation
import GRDB
import Platform
import SharedKernel
import TestSupport

@testable import Storage

extension AppDatabase {
    /// Signs the seeded demo learner in (with the fast test hasher) and returns them.
    func signInDemo() async throws -> User {
        try await SQLiteSessionRepository(database: self, hasher: .fast).signIn(email: "demo@edugo.dev", password: "edugo-demo")
    }

    /// A second learner, written directly.
    func addLearner(_ name: String, email: String) async throws -> UserID {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO user (name, email, password_hash, created_at) VALUES (?, ?, 'x', ?)", arguments: [name, email, Date()])
            return UserID(db.lastInsertedRowID)
        }
    }
}

extension SQLiteCourseRepository {
    /// The whole catalog in order, through the paging API (fine for test-sized catalogs).
    func everyCourse() async throws -> [Course] {
        try await page(matching: "", at: .first, limit: 1_000_000).map(\.course)
    }

    /// Every course a search finds, in order.
    func find(_ query: String) async throws -> [Course] {
        try await page(matching: query, at: .first, limit: 1_000_000).map(\.course)
    }
}

extension Array where Element == Course {
    /// The courses as a file would give them, without lessons of their own.
    var entries: [CourseEntry] { map { CourseEntry(course: $0) } }
}

extension ContractStore {
    /// The SQLite store on `database`, under the port contracts.
    static func sqlite(_ database: AppDatabase) -> ContractStore {
        let clock = SteppingClock()
        return ContractStore(
            courses: SQLiteCourseRepository(database: database),
            enrollments: SQLiteEnrollmentRepository(database: database, now: { clock.now() }),
            favourites: SQLiteFavouritesRepository(database: database),
            profiles: SQLiteProfileRepository(database: database),
            sessions: SQLiteSessionRepository(database: database, hasher: .fast),
            accounts: AccountService(store: SQLiteAccountStore(database: database), hasher: PasswordHasher.fast),
            refreshTokens: SQLiteRefreshTokenRepository(database: database),
            changes: SQLiteChangeLog(database: database),
            learning: SQLiteLearningRepository(database: database, now: { clock.now() }),
            operations: SQLiteOperationRepository(database: database, now: { clock.now() }),
            addCourses: { entries in
                _ = try database.importCourses(entries: entries.map { CourseEntry(course: $0.0, lessons: $0.1) })
            }
        )
    }
}
