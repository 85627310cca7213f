import GRDB
import SharedKernel

/// Profiles in SQLite.
public struct SQLiteProfileRepository: ProfileRepository {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func user(id: UserID) async throws(AppError) -> User {
        let user = try await database.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT \(UserRow.columns) FROM user WHERE id = ?"), arguments: [id.rawValue])
                .map(UserRow.user(from:))
        }
        guard let user else { throw .notSignedIn }
        return user
    }

    public func updateName(userID: UserID, to name: String) async throws(AppError) -> User {
        try await database.write { db in
            try db.execute(sql: "UPDATE user SET name = ? WHERE id = ?", arguments: [name, userID.rawValue])
            guard db.changesCount == 1,
                let row = try Row.fetchOne(db, sql: "SELECT \(UserRow.columns) FROM user WHERE id = ?", arguments: [userID.rawValue])
            else { throw AppError.notSignedIn }
            try ChangeRows.record(.profile(userID), in: db)
            return try UserRow.user(from: row)
        }
    }
}
