import Foundation
import GRDB
import Platform
import SharedKernel

/// The single-row `session` table of a machine, on top of its accounts: who was signed in when
/// the app last ran.
public struct SQLiteSessionRepository: SessionRepository {
    private let database: AppDatabase
    private let accounts: AccountService

    public init(database: AppDatabase, hasher: PasswordHasher = PasswordHasher()) {
        self.database = database
        self.accounts = AccountService(store: SQLiteAccountStore(database: database), hasher: hasher)
    }

    public func restoreSession() async throws(AppError) -> User? {
        try await database.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT user.id, user.name, user.email, user.role, user.created_at
                    FROM session JOIN user ON user.id = session.user_id
                    WHERE session.id = 1
                    """
            )
            .map(UserRow.user(from:))
        }
    }

    public func signIn(email: String, password: String) async throws(AppError) -> User {
        let user = try await accounts.authenticate(email: email, password: password)
        try await startSession(for: user.id)
        return user
    }

    public func createAccount(name: String, email: String, password: String) async throws(AppError) -> User {
        let user = try await accounts.register(name: name, email: email, password: password)
        try await startSession(for: user.id)
        return user
    }

    /// Forgets the stored session only if it is still this learner's: another instance may
    /// have signed someone else in since, and that one stays for the next start.
    public func signOut(userID: UserID) async throws(AppError) {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM session WHERE user_id = ?", arguments: [userID.rawValue])
        }
    }

    private func startSession(for userID: UserID) async throws(AppError) {
        let now = Date()
        try await database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO session (id, user_id, created_at) VALUES (1, ?, ?)", arguments: [userID.rawValue, now])
        }
    }
}

/// Learner accounts in the `user` table: SQL only, the rules are `AccountService`'s.
public struct SQLiteAccountStore: AccountStore {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func account(emailKey: String) async throws(AppError) -> StoredAccount? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT \(UserRow.columns), password_hash FROM user WHERE email_key = ?", arguments: [emailKey])
                .map {
                    StoredAccount(
                        user: try UserRow.user(from: $0), passwordHash: try RowReader(row: $0, what: "user").string("password_hash"))
                }
        }
    }

    public func insertLearner(_ account: NewAccount, emailKey: String, passwordHash: String, createdAt: Date) async throws(AppError) -> User
    {
        try await database.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE email_key = ?", arguments: [emailKey]) == true {
                throw AppError.emailTaken
            }
            try db.execute(
                sql: "INSERT INTO user (name, email, email_key, password_hash, role, created_at) VALUES (?, ?, ?, ?, 'learner', ?)",
                arguments: [account.name, account.email, emailKey, passwordHash, createdAt]
            )
            return User(id: UserID(db.lastInsertedRowID), name: account.name, email: account.email, role: .learner, memberSince: createdAt)
        }
    }
}

/// Mapping of `user` rows; never reads the password hash into a `User`.
enum UserRow {
    static let columns = "id, name, email, role, created_at"

    static func user(from row: Row) throws -> User {
        let reader = RowReader(row: row, what: "user")
        return User(
            id: UserID(try reader.int64("id")),
            name: try reader.string("name"),
            email: try reader.string("email"),
            role: UserRole(rawValue: try reader.string("role")) ?? .learner,
            memberSince: try reader.date("created_at")
        )
    }
}
