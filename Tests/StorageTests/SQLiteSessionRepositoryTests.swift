import Foundation
import GRDB
import SharedKernel
@testable import Storage
import Testing
import TestSupport

@Suite("Accounts and sessions in SQLite")
struct SQLiteSessionRepositoryTests {
    @Test("a wrong password and an unknown email give the same error")
    func invalidCredentials() async throws {
        let (sut, _, directory) = try makeSUT()
        defer { directory.remove() }

        await #expect(throws: AppError.invalidCredentials) { try await sut.signIn(email: "demo@edugo.dev", password: "wrong-password") }
        await #expect(throws: AppError.invalidCredentials) { try await sut.signIn(email: "nobody@edugo.dev", password: "edugo-demo") }
        #expect(try await sut.currentUser() == nil)
    }

    @Test("signing in starts a session that survives reopening; logging out deletes it")
    func sessionLifecycle() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }

        let user = try await sut.signIn(email: "DEMO@edugo.dev", password: "edugo-demo")
        try database.writer.close()
        let reopened = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })
        let again = SQLiteSessionRepository(database: reopened, hasher: .fast)

        #expect(user.name == "Demo Learner")
        #expect(try await again.currentUser() == user)
        try await again.signOut()
        #expect(try await again.currentUser() == nil)
        let rows = try await reopened.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM session") }
        #expect(rows == 0)
    }

    @Test("creating an account signs it in; the same email in any case is refused")
    func createAccount() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }

        let ana = try await sut.createAccount(name: "Ana Lima", email: "ana@edugo.dev", password: "s3cret-pass")

        #expect(try await sut.currentUser()?.id == ana.id)
        await #expect(throws: AppError.emailTaken) {
            try await sut.createAccount(name: "Other", email: "ANA@EduGo.dev", password: "another-pass")
        }
        await #expect(throws: AppError.emailTaken) {
            try await sut.createAccount(name: "Demo", email: "Demo@EduGo.Dev", password: "another-pass")
        }
        try await sut.signOut()
        #expect(try await sut.signIn(email: "ana@edugo.dev", password: "s3cret-pass").id == ana.id)
        let stored = try await database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT password_hash FROM user WHERE email = 'ana@edugo.dev'")
        }
        #expect(stored?.contains("s3cret-pass") == false)
    }

    @Test("account forms are checked before anything is written", arguments: [
        ("", "x@edugo.dev", "long-enough", "Enter a name"),
        ("Ana", "not-an-email", "long-enough", "Enter a valid email address"),
        ("Ana", "ana@edugo", "long-enough", "Enter a valid email address"),
        ("Ana", "ana@edugo.dev", "short", "Use a password of 8 or more characters"),
    ])
    func invalidForms(name: String, email: String, password: String, reason: String) async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }

        await #expect(throws: AppError.invalidAccount(reason: reason)) {
            try await sut.createAccount(name: name, email: email, password: password)
        }
        let users = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM user") }
        #expect(users == 1)
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
