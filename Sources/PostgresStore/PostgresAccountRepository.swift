import Foundation
import Logging
import Platform
import PostgresNIO
import SharedKernel

/// Learner accounts in PostgreSQL: SQL only, the rules are `AccountService`'s.
public struct PostgresAccountStore: AccountStore {
    private let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    public func account(emailKey: String) async throws(AppError) -> StoredAccount? {
        let logger = database.logger
        return try await database.read { connection -> StoredAccount? in
            let rows = try await connection.prepared(
                "SELECT \(unescaped: PostgresProfileRepository.columns), password_hash FROM learner WHERE email_key = \(emailKey)",
                logger: logger
            )
            for try await row in rows {
                return StoredAccount(
                    user: try PostgresProfileRepository.user(row), passwordHash: try row.makeRandomAccess()[5].decode(String.self))
            }
            return nil
        }
    }

    public func insertLearner(_ account: NewAccount, emailKey: String, passwordHash: String, createdAt: Date) async throws(AppError) -> User
    {
        let logger = database.logger
        return try await database.transaction(.saving) { connection in
            // The unique index on email_key decides between two racing sign-ups.
            let id = try await connection.query(
                """
                INSERT INTO learner (name, email, email_key, password_hash, role, created_at)
                VALUES (\(account.name), \(account.email), \(emailKey), \(passwordHash), 'learner', \(createdAt))
                ON CONFLICT DO NOTHING
                RETURNING id
                """,
                logger: logger
            ).decode(Int64.self).first { _ in true }
            guard let id else { throw AppError.emailTaken }
            return User(id: UserID(id), name: account.name, email: account.email, role: .learner, memberSince: createdAt)
        }
    }
}

/// Profiles in PostgreSQL.
public struct PostgresProfileRepository: ProfileRepository {
    private let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    static let columns = "id, name, email, role, created_at"

    static func user(_ row: PostgresRow) throws -> User {
        let (id, name, email, role, created) = try row.decode((Int64, String, String, String, Date).self)
        return User(id: UserID(id), name: name, email: email, role: UserRole(rawValue: role) ?? .learner, memberSince: created)
    }

    public func user(id: UserID) async throws(AppError) -> User {
        let logger = database.logger
        let user = try await database.read { connection -> User? in
            for try await row in try await connection.prepared(
                "SELECT \(unescaped: Self.columns) FROM learner WHERE id = \(id.rawValue)", logger: logger
            ) {
                return try Self.user(row)
            }
            return nil
        }
        guard let user else { throw .notSignedIn }
        return user
    }

    public func updateName(userID: UserID, to name: String) async throws(AppError) -> User {
        let logger = database.logger
        let now = Date()
        // The learner's row first, as a queued batch locks it: the name's time is a row a batch
        // writes last, so a rename holding it while it waited for the batch's lock on the
        // learner would deadlock with it.
        return try await database.transaction(.saving, learner: userID) { connection in
            try await PostgresMergeTimes.stampNow(.name(name), userID: userID, at: now, in: connection, logger: logger)
            return try await Self.rename(userID, to: name, in: connection, logger: logger)
        }
    }

    /// `updateName`'s work inside a transaction (an operation's, too).
    static func rename(_ userID: UserID, to name: String, in connection: PostgresConnection, logger: Logger) async throws -> User {
        var updated: User?
        for try await row in try await connection.query(
            "UPDATE learner SET name = \(name) WHERE id = \(userID.rawValue) RETURNING \(unescaped: Self.columns)", logger: logger
        ) {
            updated = try Self.user(row)
        }
        guard let updated else { throw AppError.notSignedIn }
        try await PostgresChangeRows.record([.profile(userID)], in: connection, logger: logger)
        return updated
    }
}

/// A server's refresh tokens in PostgreSQL, as hashes in families, shared by every server.
public struct PostgresRefreshTokenRepository: RefreshTokenRepository {
    private let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    public func issue(_ token: RefreshTokenRecord, now: Date) async throws(AppError) {
        let logger = database.logger
        try await database.transaction(.saving) { connection in
            try await connection.query("DELETE FROM refresh_token WHERE expires_at <= \(now)", logger: logger)
            try await connection.query(
                """
                INSERT INTO refresh_token (hash, family, user_id, expires_at)
                VALUES (\(token.hash), \(token.family), \(token.userID.rawValue), \(token.expiresAt))
                """,
                logger: logger
            )
        }
    }

    /// The presented token's row is locked, so the same token presented to two servers at
    /// once rotates once; the second sees it used and ends the family.
    public func rotate(_ presented: String, to replacement: String, expiresAt: Date, now: Date) async throws(AppError) -> RefreshOutcome {
        let logger = database.logger
        return try await database.transaction(.saving) { connection in
            let rows = try await connection.prepared(
                "SELECT family, user_id, expires_at, used_at, revoked FROM refresh_token WHERE hash = \(presented) FOR UPDATE",
                logger: logger
            )
            var found: (String, Int64, Date, Date?, Bool)?
            for try await row in rows.decode((String, Int64, Date, Date?, Bool).self) { found = row }
            guard let (family, userID, expires, used, revoked) = found, !revoked else { return .rejected }
            if used != nil {
                try await Self.end(family: family, in: connection, logger: logger)
                return .reused
            }
            guard expires > now else { return .rejected }
            try await connection.query("UPDATE refresh_token SET used_at = \(now) WHERE hash = \(presented)", logger: logger)
            try await connection.query(
                "INSERT INTO refresh_token (hash, family, user_id, expires_at) VALUES (\(replacement), \(family), \(userID), \(expiresAt))",
                logger: logger
            )
            return .rotated(userID: UserID(userID), family: family)
        }
    }

    public func revoke(family: String) async throws(AppError) {
        let logger = database.logger
        try await database.transaction(.saving) { connection in try await Self.end(family: family, in: connection, logger: logger) }
    }

    /// Ends a sign-in, and notes it once, for the streams of that sign-in to close.
    private static func end(family: String, in connection: PostgresConnection, logger: Logger) async throws {
        let owner = try await connection.query(
            "SELECT user_id FROM refresh_token WHERE family = \(family) AND NOT revoked LIMIT 1", logger: logger
        ).decode(Int64.self).first { _ in true }
        try await connection.query("UPDATE refresh_token SET revoked = true WHERE family = \(family)", logger: logger)
        if let owner { try await PostgresChangeRows.record([.signedOut(UserID(owner), signIn: family)], in: connection, logger: logger) }
    }

    public func isLive(family: String, userID: UserID, now: Date) async throws(AppError) -> Bool {
        let logger = database.logger
        return try await database.read { connection in
            try await connection.prepared(
                """
                SELECT 1 FROM refresh_token
                WHERE family = \(family) AND user_id = \(userID.rawValue) AND NOT revoked AND used_at IS NULL AND expires_at > \(now)
                LIMIT 1
                """,
                logger: logger
            ).decode(Int.self).first { _ in true } != nil
        }
    }
}

extension PostgresDatabase {
    /// The key that signs access tokens, made by the first server that asks and the same for
    /// every server after it.
    public func signingKey() async throws(AppError) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let candidate = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let logger = self.logger
        return try await transaction(.saving) { connection in
            try await connection.query(
                "INSERT INTO signing_key (id, key) VALUES (1, \(ByteBuffer(bytes: candidate))) ON CONFLICT (id) DO NOTHING", logger: logger
            )
            for try await key in try await connection.query("SELECT key FROM signing_key WHERE id = 1", logger: logger).decode(
                ByteBuffer.self)
            {
                return Array(key.readableBytesView)
            }
            throw AppError.storage(.reading, detail: "no signing key")
        }
    }

    /// Imports courses (an import file's entries) in one transaction. `check` sees what the
    /// file's checks need of the stored catalog, inside that transaction (the stored ids among
    /// `prerequisites`, and every stored course's prerequisite); what it throws refuses the
    /// whole import, as `.storage(.saving, detail:)` with its description. `progress` is told
    /// each step after the checks (which show as opening the database).
    public func importCourses(
        _ entries: [(course: Course, lessons: [Lesson]?)],
        prerequisites: Set<CourseID> = [],
        progress: ImportProgress? = nil,
        check: @escaping @Sendable (_ stored: Set<CourseID>, _ storedPrerequisite: [CourseID: CourseID]) throws -> Void = { _, _ in }
    ) async throws(AppError) -> (added: Int, updated: Int) {
        let logger = self.logger
        return try await transaction(.saving) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresCatalog.writeLock))", logger: logger)
            var stored: Set<CourseID> = []
            let asked = prerequisites.map(\.rawValue)
            for try await id in try await connection.query("SELECT id FROM course WHERE id = ANY(\(asked))", logger: logger).decode(
                String.self)
            {
                stored.insert(CourseID(id))
            }
            var chain: [CourseID: CourseID] = [:]
            let links = try await connection.query(
                "SELECT id, prerequisite_id FROM course WHERE prerequisite_id IS NOT NULL", logger: logger)
            for try await (id, prerequisite) in links.decode((String, String).self) { chain[CourseID(id)] = CourseID(prerequisite) }
            do { try check(stored, chain) } catch { throw AppError.storage(.saving, detail: String(describing: error)) }
            let summary = try await PostgresCatalog.upsert(entries, in: connection, logger: logger, progress: progress)
            // One note for the whole import: whoever shows the catalog reads it again.
            progress?.begin(.finishing)
            if !entries.isEmpty { try await PostgresChangeRows.record([.catalog], in: connection, logger: logger) }
            return summary
        }
    }
}

/// Counted sign-in attempts in the database, shared by every server process.
public struct PostgresSignInAttempts: SignInAttemptLog {
    private let database: PostgresDatabase

    public init(database: PostgresDatabase) {
        self.database = database
    }

    /// One transaction under a lock of the email key, so servers that take guesses at once
    /// count every one.
    public func reserve(key: String, address: String, at date: Date, since: Date, policy: SignInPolicy) async throws(AppError)
        -> AttemptReservation
    {
        let logger = database.logger
        return try await database.transaction(.saving) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(key), 0))", logger: logger)
            try await connection.query("DELETE FROM sign_in_attempt WHERE email_key = \(key) AND attempted_at <= \(since)", logger: logger)
            var attempts: [(address: String, at: Date)] = []
            let rows = try await connection.query(
                "SELECT address, attempted_at FROM sign_in_attempt WHERE email_key = \(key) ORDER BY attempted_at, id", logger: logger
            )
            for try await (address, at) in rows.decode((String, Date).self) { attempts.append((address, at)) }
            if let oldest = policy.oldestHoldingLimit(attempts, address: address) { return .refused(oldest: oldest) }
            let inserted = try await connection.query(
                "INSERT INTO sign_in_attempt (email_key, address, attempted_at) VALUES (\(key), \(address), \(date)) RETURNING id",
                logger: logger
            )
            for try await id in inserted.decode(Int64.self) { return .reserved(id: id) }
            throw AppError.storage(.saving, detail: "no attempt id")
        }
    }

    /// A failure here leaves an attempt counted until it leaves the window: never a way in.
    public func forget(key: String, address: String) async {
        let logger = database.logger
        try? await database.transaction(.saving) { connection in
            _ = try await connection.query("DELETE FROM sign_in_attempt WHERE email_key = \(key) AND address = \(address)", logger: logger)
        }
    }

    public func takeBack(key: String, id: Int64) async {
        let logger = database.logger
        try? await database.transaction(.saving) { connection in
            _ = try await connection.query("DELETE FROM sign_in_attempt WHERE id = \(id)", logger: logger)
        }
    }
}
