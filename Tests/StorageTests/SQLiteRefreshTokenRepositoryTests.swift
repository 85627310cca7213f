import Foundation
import GRDB
import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

@Suite("SQLite refresh tokens")
struct SQLiteRefreshTokenRepositoryTests {
    @Test("only hashes are stored, and tokens expired by the next sign-in are forgotten")
    func prunesExpired() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })
        let sut = SQLiteRefreshTokenRepository(database: database)
        let now = Date()
        try await sut.issue(
            RefreshTokenRecord(hash: "expired", family: "f1", userID: UserID(1), expiresAt: now.addingTimeInterval(-60)),
            now: now.addingTimeInterval(-120))
        try await sut.issue(
            RefreshTokenRecord(hash: "live", family: "f2", userID: UserID(1), expiresAt: now.addingTimeInterval(60)),
            now: now.addingTimeInterval(-120))
        let before = try await database.writer.read { db in try String.fetchAll(db, sql: "SELECT hash FROM refresh_token ORDER BY hash") }

        try await sut.issue(
            RefreshTokenRecord(hash: "new", family: "f3", userID: UserID(1), expiresAt: now.addingTimeInterval(60)), now: now)

        let after = try await database.writer.read { db in try String.fetchAll(db, sql: "SELECT hash FROM refresh_token ORDER BY hash") }
        #expect(before == ["expired", "live"])
        #expect(after == ["live", "new"])
    }
}
