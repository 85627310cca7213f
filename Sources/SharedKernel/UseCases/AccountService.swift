import Foundation

/// Where a store keeps learner accounts: its SQL, and nothing of the rules (`AccountService`).
public protocol AccountStore: Sendable {
    /// The account whose email has this key (`AccountRules.emailKey`), with its password hash.
    func account(emailKey: String) async throws(AppError) -> StoredAccount?
    /// Stores a new learner in one transaction; `.emailTaken` when the key is taken by then
    /// (checked inside the transaction, or by a unique index), so two racing sign-ups of one
    /// address cannot both succeed.
    func insertLearner(_ account: NewAccount, emailKey: String, passwordHash: String, createdAt: Date) async throws(AppError) -> User
}

/// An account as a store holds it.
public struct StoredAccount: Sendable {
    public let user: User
    public let passwordHash: String

    public init(user: User, passwordHash: String) {
        self.user = user
        self.passwordHash = passwordHash
    }
}

/// Sign-in and sign-up, the same over every store. Hashing runs outside the store's
/// transactions, so a slow hash never holds a lock or a connection.
public struct AccountService: AccountRepository {
    private let store: any AccountStore
    private let hasher: any PasswordHashing
    private let now: @Sendable () -> Date

    public init(store: any AccountStore, hasher: any PasswordHashing, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.hasher = hasher
        self.now = now
    }

    public func authenticate(email: String, password: String) async throws(AppError) -> User {
        let found = try await store.account(emailKey: AccountRules.emailKey(email))
        // A missing account still pays for one hash, so timing does not tell which part was wrong.
        guard await hasher.verifyPassword(password, against: found?.passwordHash ?? hasher.decoyHash), let found else {
            throw .invalidCredentials
        }
        return found.user
    }

    public func register(name: String, email: String, password: String) async throws(AppError) -> User {
        let account: NewAccount
        switch AccountRules.validate(name: name, email: email, password: password) {
        case .success(let valid): account = valid
        case .failure(let rejection): throw .invalidAccount(rejection)
        }
        // Checked before hashing too, so a taken email costs no hash; the insert decides.
        let key = AccountRules.emailKey(account.email)
        if try await store.account(emailKey: key) != nil { throw .emailTaken }
        let hash: String
        do { hash = try await hasher.hashPassword(account.password) } catch { throw .storage(.saving, detail: "hashing failed: \(error)") }
        return try await store.insertLearner(account, emailKey: key, passwordHash: hash, createdAt: now())
    }
}
