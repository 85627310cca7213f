import Foundation
import GRDB
import SharedKernel

/// The single-row `session` table of a machine, on top of its accounts: who was signed in when
/// the app last ran.
public struct SQLiteSessionRepository: SessionRepository {
    private let database: AppDatabase
    private let accounts: SQLiteAccountRepository

    public init(database: AppDatabase, hasher: PasswordHasher = PasswordHasher()) {
        self.database = database
        self.accounts = SQLiteAccountRepository(database: database, hasher: hasher)
    }

    public func restoreSession() async throws(AppError) -> User? {
        try await database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT user.id, user.name, user.email, user.role, user.created_at
                FROM session JOIN user ON user.id = session.user_id
                WHERE session.id = 1
                """)
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
            try db.execute(sql: "INSERT OR REPLACE INTO session (id, user_id, created_at) VALUES (1, ?, ?)", arguments: [userID.rawValue, now])
        }
    }
}

/// Learner accounts in the `user` table. Password hashing runs outside database transactions,
/// so a slow hash never holds the write lock, and off the caller's thread, so a server's event
/// loops never wait for it.
public struct SQLiteAccountRepository: AccountRepository {
    private let database: AppDatabase
    private let hasher: PasswordHasher

    public init(database: AppDatabase, hasher: PasswordHasher = PasswordHasher()) {
        self.database = database
        self.hasher = hasher
    }

    public func authenticate(email: String, password: String) async throws(AppError) -> User {
        let key = AccountRules.emailKey(email)
        let found = try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT id, name, email, role, created_at, password_hash FROM user WHERE email_key = ?", arguments: [key])
                .map { (try UserRow.user(from: $0), try RowReader(row: $0, what: "user").string("password_hash")) }
        }
        // A missing account still pays for one hash, so timing does not tell which part was wrong.
        let stored = found?.1 ?? hasher.decoyHash
        guard await hasher.verifyOffThread(password, against: stored), let user = found?.0 else { throw .invalidCredentials }
        return user
    }

    public func register(name: String, email: String, password: String) async throws(AppError) -> User {
        let account: NewAccount
        switch AccountRules.validate(name: name, email: email, password: password) {
        case .success(let valid): account = valid
        case .failure(let rejection): throw .invalidAccount(rejection)
        }
        // Checked before hashing too, so a taken email costs no hash; the insert checks again.
        let key = AccountRules.emailKey(account.email)
        let taken = try await database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE email_key = ?", arguments: [key]) == true
        }
        if taken { throw .emailTaken }
        let hash: String
        do { hash = try await hasher.hashOffThread(account.password) } catch { throw .storage(.saving, detail: "hashing failed: \(error)") }
        let now = Date()
        return try await database.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE email_key = ?", arguments: [key]) == true {
                throw AppError.emailTaken
            }
            try db.execute(
                sql: "INSERT INTO user (name, email, email_key, password_hash, role, created_at) VALUES (?, ?, ?, ?, 'learner', ?)",
                arguments: [account.name, account.email, key, hash, now]
            )
            return User(id: UserID(db.lastInsertedRowID), name: account.name, email: account.email, role: .learner, memberSince: now)
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
