import Foundation
import GRDB
import SharedKernel

/// Who is signed in, from the single-row `session` table.
public struct SQLiteSessionRepository: SessionRepository {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func currentUser() async throws(AppError) -> User? {
        try await database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT user.id, user.name, user.email, user.role, user.created_at
                FROM session JOIN user ON user.id = session.user_id
                WHERE session.id = 1
                """)
                .map(UserRow.user(from:))
        }
    }
}

/// Mapping of `user` rows; never reads the password hash into a `User`.
enum UserRow {
    static func user(from row: Row) -> User {
        User(
            id: UserID(row["id"]),
            name: row["name"],
            email: row["email"],
            role: UserRole(rawValue: row["role"]) ?? .learner,
            memberSince: row["created_at"]
        )
    }
}
