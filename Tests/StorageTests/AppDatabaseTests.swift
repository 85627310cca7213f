import Foundation
import GRDB
import SharedKernel
@testable import Storage
import Testing
import TestSupport

@Suite("Opening the database")
struct AppDatabaseTests {
    @Test("a fresh directory is created with mode 0700 and migrated from empty")
    func migratesFromEmpty() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let dataDirectory = directory.url.appendingPathComponent("nested/edugo")

        let database = try AppDatabase.open(directory: dataDirectory, passwordHasher: .fast)

        let permissions = try FileManager.default.attributesOfItem(atPath: dataDirectory.path)[.posixPermissions] as? Int
        #expect(permissions == 0o700)
        let tables = try await database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        }
        #expect(tables == [
            "course", "course_search", "course_search_config", "course_search_data", "course_search_docsize",
            "course_search_idx", "enrollment", "favourite", "grdb_migrations", "session", "user",
        ])
    }

    @Test("the built-in catalog is loaded once: a second start adds nothing")
    func seedsOnce() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        let seeded = try await SQLiteCourseRepository(database: first).everyCourse()
        try await first.writer.write { db in
            try db.execute(sql: "DELETE FROM course WHERE id = 'swift-fundamentals'")
        }
        try first.writer.close()

        let second = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        let afterRestart = try await SQLiteCourseRepository(database: second).everyCourse()
        let users = try await second.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM user") }

        #expect(seeded.count == (try BuiltInCatalog.load()).count)
        #expect(afterRestart.count == seeded.count - 1)
        #expect(users == 1)
    }

    @Test("a file that is not a database is refused and left byte for byte untouched")
    func refusesNonDatabase() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent(AppDatabase.fileName).path
        let original = Data("these are my notes, not a database\n".utf8)
        _ = FileManager.default.createFile(atPath: path, contents: original)

        #expect(throws: StorageError.notADatabase(path: path)) {
            try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        }
        #expect(FileManager.default.contents(atPath: path) == original)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("another program's SQLite database is refused and left untouched")
    func refusesForeignDatabase() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent(AppDatabase.fileName).path
        let foreign = try DatabaseQueue(path: path)
        try foreign.write { db in try db.execute(sql: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hi')") }
        try foreign.close()
        let original = FileManager.default.contents(atPath: path)

        #expect(throws: StorageError.notAnEduGoDatabase(path: path)) {
            try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        }
        #expect(FileManager.default.contents(atPath: path) == original)
    }

    @Test("a database from a newer version is refused and left untouched")
    func refusesNewerSchema() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
        }
        try database.writer.close()
        let original = FileManager.default.contents(atPath: database.path)

        #expect(throws: StorageError.newerSchema(path: database.path)) {
            try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        }
        #expect(FileManager.default.contents(atPath: database.path) == original)
    }

    @Test("a data directory path blocked by a file is a clear error")
    func blockedDirectory() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let blocked = directory.url.appendingPathComponent("edugo")
        _ = FileManager.default.createFile(atPath: blocked.path, contents: Data())

        #expect(throws: StorageError.cannotCreateDirectory(path: blocked.path, reason: "a file with that name is in the way")) {
            try AppDatabase.open(directory: blocked, passwordHasher: .fast)
        }
    }

    @Test("a data directory that cannot be made names the level that failed and the system's reason")
    func uncreatableDirectory() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("notes.txt")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data())
        let below = file.appendingPathComponent("edugo/data")

        #expect(throws: StorageError.cannotCreateDirectory(path: below.path, reason: "\(file.path)/edugo: Not a directory")) {
            try AppDatabase.open(directory: below, passwordHasher: .fast)
        }
    }

    @Test("the missing levels above a new data directory are made with mode 0700 too")
    func directoryMode() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let nested = directory.url.appendingPathComponent("share/edugo")

        _ = try AppDatabase.open(directory: nested, passwordHasher: .fast)

        for path in [nested.path, nested.deletingLastPathComponent().path] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o700, "\(path)")
        }
    }

    @Test("first run: the demo account exists, nobody is signed in, no plaintext password is stored")
    func demoAccount() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let hasher = PasswordHasher.fast
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: hasher)

        let signedIn = try await SQLiteSessionRepository(database: database, hasher: hasher).currentUser()
        let stored = try await database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT password_hash FROM user WHERE email = 'demo@edugo.dev'")
        }

        #expect(signedIn == nil)
        let hash = try #require(stored)
        #expect(!hash.contains("edugo-demo"))
        #expect(hasher.verify("edugo-demo", against: hash))
        let demo = try await database.signInDemo()
        #expect(demo?.name == "Demo Learner")
    }
}

extension PasswordHasher {
    /// Few rounds, so tests that create accounts stay quick.
    static let fast = PasswordHasher(rounds: 1_000)
}
