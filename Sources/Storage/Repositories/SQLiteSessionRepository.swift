import Foundation
import GRDB
import SharedKernel

/// Accounts and the single-row `session` table. Password hashing runs outside database
/// transactions, so a slow hash never holds the write lock.
public struct SQLiteSessionRepository: SessionRepository {
    private let database: AppDatabase
    private let hasher: PasswordHasher

    public init(database: AppDatabase, hasher: PasswordHasher = PasswordHasher()) {
        self.database = database
        self.hasher = hasher
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

    public func signIn(email: String, password: String) async throws(AppError) -> User {
        let normalized = email.trimmingCharacters(in: .whitespaces)
        let found = try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT id, name, email, role, created_at, password_hash FROM user WHERE email = ?", arguments: [normalized])
                .map { (UserRow.user(from: $0), $0["password_hash"] as String) }
        }
        // A missing account still pays for one hash, so timing does not tell which part was wrong.
        let stored = found?.1
            ?? "pbkdf2-sha256$\(hasher.rounds)$\(Data(count: 16).base64EncodedString())$\(Data(count: 32).base64EncodedString())"
        guard hasher.verify(password, against: stored), let user = found?.0 else { throw .invalidCredentials }
        try await startSession(for: user.id)
        return user
    }

    public func createAccount(name: String, email: String, password: String) async throws(AppError) -> User {
        let name = try AccountRules.name(name)
        let email = try AccountRules.email(email)
        try AccountRules.password(password)
        let hash: String
        do { hash = try hasher.hash(password) } catch { throw .storage(detail: "hashing failed: \(error)") }
        let now = Date()
        return try await database.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE email = ?", arguments: [email]) == true {
                throw AppError.emailTaken
            }
            try db.execute(
                sql: "INSERT INTO user (name, email, password_hash, role, created_at) VALUES (?, ?, ?, 'learner', ?)",
                arguments: [name, email, hash, now]
            )
            let id = db.lastInsertedRowID
            try db.execute(sql: "INSERT OR REPLACE INTO session (id, user_id, created_at) VALUES (1, ?, ?)", arguments: [id, now])
            return User(id: UserID(id), name: name, email: email, role: .learner, memberSince: now)
        }
    }

    public func signOut() async throws(AppError) {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM session")
        }
    }

    private func startSession(for userID: UserID) async throws(AppError) {
        let now = Date()
        try await database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO session (id, user_id, created_at) VALUES (1, ?, ?)", arguments: [userID.rawValue, now])
        }
    }
}

/// The account form's rules, checked before anything is hashed or written.
enum AccountRules {
    static func name(_ raw: String) throws(AppError) -> String {
        switch ProfileName.validate(raw) {
        case .success(let name): return name
        case .failure(let rejection): throw .invalidAccount(reason: rejection.message)
        }
    }

    static func email(_ raw: String) throws(AppError) -> String {
        let email = raw.trimmingCharacters(in: .whitespaces)
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              !email.contains(where: { $0.isWhitespace })
        else { throw .invalidAccount(reason: "Enter a valid email address") }
        return email
    }

    static func password(_ password: String) throws(AppError) {
        guard password.count >= 8 else { throw .invalidAccount(reason: "Use a password of 8 or more characters") }
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
