import GRDB
import SharedKernel

/// Profiles in SQLite.
public struct SQLiteProfileRepository: ProfileRepository {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func updateName(userID: UserID, to name: String) async throws(AppError) -> User {
        try await database.write { db in
            try db.execute(sql: "UPDATE user SET name = ? WHERE id = ?", arguments: [name, userID.rawValue])
            guard db.changesCount == 1,
                  let row = try Row.fetchOne(db, sql: "SELECT id, name, email, role, created_at FROM user WHERE id = ?", arguments: [userID.rawValue])
            else { throw AppError.notSignedIn }
            return UserRow.user(from: row)
        }
    }
}
