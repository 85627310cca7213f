import Foundation
import GRDB
import SharedKernel

/// A server's refresh tokens, as hashes in families (migration v10).
public struct SQLiteRefreshTokenRepository: RefreshTokenRepository {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func issue(_ token: RefreshTokenRecord, now: Date) async throws(AppError) {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM refresh_token WHERE expires_at <= ?", arguments: [now])
            try db.execute(
                sql: "INSERT INTO refresh_token (hash, family, user_id, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [token.hash, token.family, token.userID.rawValue, token.expiresAt]
            )
        }
    }

    public func rotate(_ presented: String, to replacement: String, expiresAt: Date, now: Date) async throws(AppError) -> RefreshOutcome {
        try await database.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT family, user_id, expires_at, used_at, revoked FROM refresh_token WHERE hash = ?",
                    arguments: [presented]
                )
            else { return .rejected }
            let reader = RowReader(row: row, what: "refresh_token")
            let family = try reader.string("family")
            if try reader.int64("revoked") != 0 { return .rejected }
            if row["used_at"] as Date? != nil {
                try Self.end(family: family, in: db)
                return .reused
            }
            guard try reader.date("expires_at") > now else { return .rejected }
            let userID = try reader.int64("user_id")
            try db.execute(sql: "UPDATE refresh_token SET used_at = ? WHERE hash = ?", arguments: [now, presented])
            try db.execute(
                sql: "INSERT INTO refresh_token (hash, family, user_id, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [replacement, family, userID, expiresAt]
            )
            return .rotated(userID: UserID(userID), family: family)
        }
    }

    public func revoke(family: String) async throws(AppError) {
        try await database.write { db in try Self.end(family: family, in: db) }
    }

    /// Ends a sign-in, and notes it once, for the streams of that sign-in to close.
    private static func end(family: String, in db: Database) throws {
        let owner = try Int64.fetchOne(
            db, sql: "SELECT user_id FROM refresh_token WHERE family = ? AND revoked = 0 LIMIT 1", arguments: [family])
        try db.execute(sql: "UPDATE refresh_token SET revoked = 1 WHERE family = ?", arguments: [family])
        if let owner { try ChangeRows.record(.signedOut(UserID(owner), signIn: family), in: db) }
    }

    public func isLive(family: String, userID: UserID, now: Date) async throws(AppError) -> Bool {
        try await database.read { db in
            // Every authorized request asks: prepared once per connection.
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT 1 FROM refresh_token
                        WHERE family = ? AND user_id = ? AND revoked = 0 AND used_at IS NULL AND expires_at > ?
                        LIMIT 1
                        """),
                arguments: [family, userID.rawValue, now]
            ) == true
        }
    }
}
