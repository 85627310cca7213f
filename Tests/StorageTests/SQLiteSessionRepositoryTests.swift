import Foundation
import GRDB
import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

@Suite("Accounts and sessions in SQLite")
struct SQLiteSessionRepositoryTests {
    @Test("the stored session survives reopening; signing out deletes it")
    func sessionLifecycle() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }

        let user = try await sut.signIn(email: "DEMO@edugo.dev", password: "edugo-demo")
        try database.writer.close()
        let reopened = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })
        let again = SQLiteSessionRepository(database: reopened, hasher: .fast)

        #expect(user.name == "Demo Learner")
        #expect(try await again.restoreSession() == user)
        try await again.signOut(userID: user.id)
        #expect(try await again.restoreSession() == nil)
        let rows = try await reopened.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM session") }
        #expect(rows == 0)
    }

    @Test("a password is stored only as a salted hash")
    func hashedPassword() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }

        _ = try await sut.createAccount(name: "Ana Lima", email: "ana@edugo.dev", password: "s3cret-pass")

        let stored = try await database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT password_hash FROM user WHERE email = 'ana@edugo.dev'")
        }
        #expect(stored?.hasPrefix("pbkdf2-sha256$") == true)
        #expect(stored?.contains("s3cret-pass") == false)
    }

    @Test("a refused account form writes nothing")
    func invalidForm() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }

        await #expect(
            throws: AppError.invalidAccount(AccountRejection(field: .password, message: "Use a password of 8 or more characters"))
        ) {
            try await sut.createAccount(name: "Ana", email: "ana@edugo.dev", password: "short")
        }
        let users = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM user") }
        #expect(users == 1)
    }

    @Test("a renamed learner survives reopening the database")
    func rename() async throws {
        let (_, database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try await database.signInDemo()

        _ = try await SQLiteProfileRepository(database: database).updateName(userID: user.id, to: "Zoë 山田")
        try database.writer.close()
        let reopened = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })

        #expect(try await SQLiteProfileRepository(database: reopened).user(id: user.id).name == "Zoë 山田")
    }

    private func makeSUT() throws -> (SQLiteSessionRepository, AppDatabase, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })
        return (SQLiteSessionRepository(database: database, hasher: .fast), database, directory)
    }
}

@Suite("Password hashing")
struct PasswordHasherTests {
    @Test("a hash verifies its password and no other")
    func verifies() throws {
        let sut = PasswordHasher.fast

        let hash = try sut.hash("correct horse")

        #expect(sut.verify("correct horse", against: hash))
        #expect(!sut.verify("correct horsE", against: hash))
        #expect(!sut.verify("", against: hash))
        #expect(!sut.verify("correct horse", against: "garbage"))
        #expect(!sut.verify("", against: sut.decoyHash))
    }

    @Test("the same password gets a different hash each time (random salt); the cost is stored")
    func salted() throws {
        let sut = PasswordHasher(rounds: 2_000)

        let first = try sut.hash("same password")
        let second = try sut.hash("same password")

        #expect(first != second)
        #expect(first.hasPrefix("pbkdf2-sha256$2000$"))
        #expect(PasswordHasher(rounds: 5).verify("same password", against: first))
    }

    @Test("the production cost is at least OWASP's 600,000 rounds")
    func productionCost() {
        #expect(PasswordHasher().rounds >= 600_000)
    }
}
