import Foundation
import GRDB
import SharedKernel
@testable import Storage
import Testing
import TestSupport

@Suite("Profiles in SQLite")
struct SQLiteProfileRepositoryTests {
    @Test("a new name is stored and survives reopening the database")
    func rename() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })
        let user = try #require(try await database.signInDemo())

        let renamed = try await SQLiteProfileRepository(database: database).updateName(userID: user.id, to: "Zoë 山田")
        try database.writer.close()
        let reopened = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })

        #expect(renamed.name == "Zoë 山田")
        #expect(try await SQLiteSessionRepository(database: reopened, hasher: .fast).currentUser()?.name == "Zoë 山田")
    }

    @Test("renaming a learner who does not exist writes nothing")
    func unknownUser() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })

        await #expect(throws: AppError.notSignedIn) {
            try await SQLiteProfileRepository(database: database).updateName(userID: UserID(999), to: "Ghost")
        }
    }
}
