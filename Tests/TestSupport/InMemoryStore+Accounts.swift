import Foundation
import SharedKernel

/// The in-memory store's sessions, accounts and refresh tokens.
extension InMemoryStore {
    // MARK: - SessionRepository

    public func restoreSession() async throws(AppError) -> User? {
        try await record(.restoreSession)
        return storedSession.flatMap { users[$0]?.user }
    }

    public func signIn(email: String, password: String) async throws(AppError) -> User {
        try await record(.signIn(email))
        let user = try await authenticate(email: email, password: password)
        storedSession = user.id
        return user
    }

    public func createAccount(name: String, email: String, password: String) async throws(AppError) -> User {
        try await record(.createAccount(email))
        let user = try await register(name: name, email: email, password: password)
        storedSession = user.id
        return user
    }

    // MARK: - AccountRepository, by the SharedKernel's AccountService over this store

    public func authenticate(email: String, password: String) async throws(AppError) -> User {
        try await AccountService(store: self, hasher: PlainPasswords(), now: now).authenticate(email: email, password: password)
    }

    public func register(name: String, email: String, password: String) async throws(AppError) -> User {
        try await AccountService(store: self, hasher: PlainPasswords(), now: now).register(name: name, email: email, password: password)
    }

    public func signOut(userID: UserID) async throws(AppError) {
        try await record(.signOut(userID))
        if storedSession == userID { storedSession = nil }
    }

    // MARK: - AccountStore

    public func account(emailKey: String) async throws(AppError) -> StoredAccount? {
        users.values.first { AccountRules.emailKey($0.user.email) == emailKey }.map {
            StoredAccount(user: $0.user, passwordHash: $0.password)
        }
    }

    public func insertLearner(_ account: NewAccount, emailKey: String, passwordHash: String, createdAt: Date) async throws(AppError) -> User
    {
        guard try await self.account(emailKey: emailKey) == nil else { throw .emailTaken }
        nextID += 1
        let user = User(id: UserID(nextID), name: account.name, email: account.email, memberSince: createdAt)
        users[user.id] = (user, passwordHash)
        return user
    }

    // MARK: - RefreshTokenRepository

    public func issue(_ token: RefreshTokenRecord, now: Date) async throws(AppError) {
        refreshTokens = refreshTokens.filter { $0.value.record.expiresAt > now }
        refreshTokens[token.hash] = (token, false, false)
    }

    public func rotate(_ presented: String, to replacement: String, expiresAt: Date, now: Date) async throws(AppError) -> RefreshOutcome {
        guard let entry = refreshTokens[presented], !entry.revoked else { return .rejected }
        if entry.used {
            try await revoke(family: entry.record.family)
            return .reused
        }
        guard entry.record.expiresAt > now else { return .rejected }
        refreshTokens[presented]?.used = true
        refreshTokens[replacement] = (
            RefreshTokenRecord(hash: replacement, family: entry.record.family, userID: entry.record.userID, expiresAt: expiresAt), false,
            false
        )
        return .rotated(userID: entry.record.userID, family: entry.record.family)
    }

    public func revoke(family: String) async throws(AppError) {
        let owner = refreshTokens.values.first { $0.record.family == family && !$0.revoked }?.record.userID
        for (hash, entry) in refreshTokens where entry.record.family == family { refreshTokens[hash]?.revoked = true }
        if let owner { note(.signedOut(owner, signIn: family)) }
    }

    public func isLive(family: String, userID: UserID, now: Date) async throws(AppError) -> Bool {
        guard users[userID] != nil else { return false }
        return refreshTokens.values.contains { entry in
            entry.record.family == family && entry.record.userID == userID && !entry.used && !entry.revoked && entry.record.expiresAt > now
        }
    }
}
