import Foundation
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
        let now = Date()
        return try await database.write { db in
            let user = try Self.rename(userID, to: name, in: db)
            try MergeTimes.stampNow(.name(name), userID: userID, at: now, in: db)
            return user
        }
    }

    /// `updateName`'s work inside a write transaction (an operation's, too).
    static func rename(_ userID: UserID, to name: String, in db: Database) throws -> User {
        try db.cachedStatement(sql: "UPDATE user SET name = ? WHERE id = ?").execute(arguments: [name, userID.rawValue])
        guard db.changesCount == 1,
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(UserRow.columns) FROM user WHERE id = ?"), arguments: [userID.rawValue])
        else { throw AppError.notSignedIn }
        try ChangeRows.record(.profile(userID), in: db)
        return try UserRow.user(from: row)
    }
}
