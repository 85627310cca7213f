import Foundation
import GRDB
import SharedKernel
@testable import Storage
import Testing
import TestSupport

@Suite("Favourites in SQLite")
struct SQLiteFavouritesRepositoryTests {
    static let catalog: [Course] = [.fixture(id: "b", title: "Beta"), .fixture(id: "a", title: "Alpha")]

    @Test("toggle twice is not a favourite; the list is sorted by title")
    func toggleTwice() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try #require(try await database.signInDemo()).id

        #expect(try await sut.toggle(userID: user, courseID: "b"))
        #expect(try await sut.toggle(userID: user, courseID: "a"))
        #expect(try await sut.favourites(userID: user).map(\.title) == ["Alpha", "Beta"])
        #expect(try await !sut.toggle(userID: user, courseID: "b"))

        #expect(try await sut.favouriteIDs(userID: user) == ["a"])
    }

    @Test("a database busy with another instance's write is waited for, then the toggle lands")
    func waitsForAnotherWriter() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try #require(try await database.signInDemo()).id
        // Another process's connection holds the write lock with a transaction of its own.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true  // held open across calls on purpose
        let other = try DatabaseQueue(path: database.path, configuration: configuration)
        try other.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "UPDATE course SET title = 'Alpha, renamed' WHERE id = 'a'")
        }

        let toggle = Task { try await sut.toggle(userID: user, courseID: "b") }
        try await Task.sleep(for: .milliseconds(300))
        let storedWhileBusy = try other.inDatabase { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM favourite") }
        try other.inDatabase { db in try db.execute(sql: "COMMIT") }

        #expect(try await toggle.value)
        #expect(storedWhileBusy == 0)
        #expect(try await sut.favourites(userID: user).map(\.title) == ["Beta"])
        #expect(try await SQLiteCourseRepository(database: database).course(id: "a").title == "Alpha, renamed")
    }

    @Test("favourites are per learner")
    func perUser() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }
        let ana = try #require(try await database.signInDemo()).id
        let ben = try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO user (name, email, password_hash, created_at) VALUES ('Ben', 'ben@edugo.dev', 'x', ?)", arguments: [Date()])
            return UserID(db.lastInsertedRowID)
        }

        _ = try await sut.toggle(userID: ana, courseID: "a")

        #expect(try await sut.favourites(userID: ben) == [])
        #expect(try await sut.favouriteIDs(userID: ana) == ["a"])
    }

    @Test("an unknown course cannot be a favourite")
    func unknownCourse() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try #require(try await database.signInDemo()).id

        await #expect(throws: AppError.courseNotFound("nope")) { try await sut.toggle(userID: user, courseID: "nope") }
    }

    private func makeSUT() throws -> (SQLiteFavouritesRepository, AppDatabase, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.catalog })
        return (SQLiteFavouritesRepository(database: database), database, directory)
    }
}
