import Foundation
import GRDB
import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

@Suite("Opening the database")
struct AppDatabaseTests {
    @Test("the pool's use, as the server's metrics read it: a write holding the writer is in use, a second waits, both leave")
    func poolUse() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })
        let release = DispatchSemaphore(value: 0)

        let first = Task { try await database.write { _ in release.wait() } }
        await database.use.waitUntil { $0.inUse == 1 }
        let second = Task { try await database.write { _ in } }
        await database.use.waitUntil { $0.waiting == 1 }
        let during = (database.use.inUse, database.use.waiting)
        release.signal()
        try await first.value
        try await second.value
        try await database.ping()

        #expect(during == (1, 1))
        #expect(database.use.inUse == 0 && database.use.waiting == 0)
    }

    @Test("the terminal's small page cache holds on every connection, readers and the writer; a server keeps SQLite's")
    func pageCache() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let small = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] }, pageCacheKibibytes: 512)
        // Reads side by side, so the pool opens several readers.
        let reads = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<8 { group.addTask { try await small.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let written = try await small.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") }
        let other = TemporaryDirectory()
        defer { other.remove() }
        let standard = try AppDatabase.open(directory: other.url, passwordHasher: .fast, seedCatalog: { [] })

        #expect(Set(reads + [written]) == [-512])
        #expect(try await standard.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == -2_000)
    }

    @Test("four opens at once of one new data directory, five times: each opens the one database, migrated once")
    func firstOpensAtOnce() async throws {
        for _ in 0..<5 {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            // Two terminals started together on a fresh directory: one exited 1 with `UNIQUE
            // constraint failed: course.id` in 1 start of 6, before the migration lock.
            let opened = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        do {
                            _ = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
                            return nil
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { failures, failure in failure.map { failures.append($0) } }
            }
            #expect(opened == [])
            let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
            let courses = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM course") }
            #expect(courses == 64, "the built-in catalog, seeded once")
        }
    }

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
        #expect(
            tables == [
                "answer", "applied_operation", "catalog_revision", "catalog_size", "change_event", "change_horizon", "course",
                "course_search", "course_search_config", "course_search_data", "course_search_docsize", "course_search_idx",
                "course_search_terms", "enrollment",
                "favourite", "grdb_migrations", "hybrid_clock", "lesson", "lesson_content", "lesson_progress", "merge_time", "outbox",
                "refresh_token", "replica_habit", "replica_memory", "replica_page", "replica_part", "review_day", "review_log", "session",
                "user",
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
        let original = Self.files(in: directory.url)

        #expect(throws: StorageError.newerSchema(path: database.path)) {
            try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        }
        // The database and its side files as they were: GRDB writes to a file in WAL mode as it
        // opens a pool on it, so a file of ours is checked before that (`prepareDatabase`).
        #expect(Self.files(in: directory.url) == original)
    }

    /// Every file of `directory`, with its bytes.
    private static func files(in directory: URL) -> [String: Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.compactMap { name in
                FileManager.default.contents(atPath: directory.appendingPathComponent(name).path).map { (name, $0) }
            })
    }

    @Test("a file of ours out of WAL mode (its header not the fast check's) opens, in WAL mode again")
    func oursOutOfWAL() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        try database.writer.close()
        // The header then says ours, but not WAL: the fast check of `open` does not apply.
        let queue = try DatabaseQueue(path: database.path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
        try queue.close()
        let header = try #require(FileManager.default.contents(atPath: database.path)?.prefix(20))
        #expect(Array(header.suffix(2)) == [1, 1])

        let again = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        #expect(try again.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        try again.writer.close()
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

        let signedIn = try await SQLiteSessionRepository(database: database, hasher: hasher).restoreSession()
        let stored = try await database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT password_hash FROM user WHERE email = 'demo@edugo.dev'")
        }

        #expect(signedIn == nil)
        let hash = try #require(stored)
        #expect(!hash.contains("edugo-demo"))
        #expect(hasher.verify("edugo-demo", against: hash))
        let demo = try await database.signInDemo()
        #expect(demo.name == "Demo Learner")
    }
}

@Suite("Opening the database: faults and permissions")
struct AppDatabaseFaultTests {
    @Test("the database and its side files are readable by their owner only, whatever the directory and umask")
    func privateFiles() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        chmod(directory.url.path, 0o755)
        let previous = umask(0o022)
        defer { umask(previous) }

        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        try database.writer.write { db in try db.execute(sql: "UPDATE user SET name = name") }

        for suffix in ["", "-wal", "-shm"] {
            let mode = try FileManager.default.attributesOfItem(atPath: database.path + suffix)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(suffix)")
        }
    }

    @Test("an existing database with looser permissions is made private when opened")
    func tightensExisting() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        try first.writer.close()
        chmod(first.path, 0o644)

        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)

        let mode = try FileManager.default.attributesOfItem(atPath: database.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("a healthy database locked by another program is called locked, not foreign, and is left as it was")
    func lockedDatabase() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        try database.writer.close()
        // Another program holds the file with an exclusive lock (and no WAL index).
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: database.path, configuration: configuration)
        try other.inDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
            try db.execute(sql: "BEGIN EXCLUSIVE")
        }
        defer { try? other.inDatabase { db in try db.execute(sql: "ROLLBACK") } }

        #expect {
            try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        } throws: { error in
            guard case .cannotOpen(_, let reason) = error as? StorageError else { return false }
            return reason.contains("locked by another program")
        }
        #expect(!FileManager.default.fileExists(atPath: database.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: database.path + "-shm"))
    }

    @Test(
        "a database the user cannot write is refused without leaving side files; fixed, it opens",
        .enabled(if: getuid() != 0, "root writes a 0400 file anyway"))
    func readOnlyDatabase() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        try database.writer.close()
        for suffix in ["-wal", "-shm"] { unlink(database.path + suffix) }
        chmod(database.path, 0o400)

        #expect(throws: StorageError.cannotOpen(path: database.path, reason: "Permission denied")) {
            try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        }
        #expect(!FileManager.default.fileExists(atPath: database.path + "-shm"))
        chmod(database.path, 0o600)
        _ = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
    }

    @Test(
        "each way an open fails is named for what it is",
        arguments: [
            (ResultCode.SQLITE_FULL, "the disk is full"),
            (.SQLITE_BUSY, "the database is locked by another program; close it and try again"),
            (.SQLITE_READONLY, "the database or its folder is read-only"),
            (.SQLITE_CORRUPT, "the database file is damaged"),
            (.SQLITE_NOTADB, "the file is not an SQLite database"),
        ])
    func reasons(code: ResultCode, reason: String) {
        #expect(AppDatabase.openReason(DatabaseError(resultCode: code)) == reason)
    }

    /// A database in `directory` as the app left it at `version` (the built-in catalog seeded).
    static func database(in directory: TemporaryDirectory, migratedUpTo version: String) throws -> DatabasePool {
        let path = directory.url.appendingPathComponent(AppDatabase.fileName).path
        let migrator = Migrations.migrator(passwordHasher: .fast, seedCatalog: { try BuiltInCatalog.load() })
        let pool = try DatabasePool(path: path)
        try migrator.migrate(pool, upTo: version)
        return pool
    }

    @Test("a database of the previous version keeps every enrollment and gets every syllabus")
    func migratesPreviousVersion() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let old = try Self.database(in: directory, migratedUpTo: "v6-search-prefixes-up-to-6")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO enrollment (user_id, course_id, enrolled_at, status, progress)
                    VALUES (1, 'swift-fundamentals', '2026-01-02 10:00:00.000', 'active', 0),
                           (1, 'git-mastery', '2026-01-03 10:00:00.000', 'dropped', 0);
                    -- A count a damaged import pushed past Int64, which crashed every start.
                    UPDATE course SET enrolled_count = 9.2233720368547758e18 WHERE id = 'resume-writing';
                    """)
        }
        try old.close()

        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)

        let statuses = try await database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT course_id || ' ' || status FROM enrollment ORDER BY course_id")
        }
        #expect(statuses == ["git-mastery dropped", "swift-fundamentals active"])
        let syllabus = try await SQLiteCourseRepository(database: database).syllabus(of: "swift-fundamentals")
        #expect(syllabus.lessons.count == syllabus.course.lessonCount)
        #expect(syllabus.lessons.count >= 4)
        #expect(
            try await SQLiteCourseRepository(database: database).course(id: "resume-writing").enrolledCount == CourseLimits.seats.upperBound
        )
    }

    @Test("a database of v29 gets the search index's update trigger that leaves a row alone when only its seats changed")
    func migratesSearchRowTrigger() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let old = try Self.database(in: directory, migratedUpTo: "v29-search-terms")
        // The trigger as v9 made it before v30: every watched column's update rewrote the row.
        try await old.write { db in
            try db.execute(
                sql: """
                    DROP TRIGGER course_search_update;
                    CREATE TRIGGER course_search_update AFTER UPDATE OF search_key, category_key, level, price_minor, active, capacity, enrolled_count, sort_rank ON course BEGIN
                        INSERT INTO course_search (course_search, rowid, search_key, search_facets)
                        SELECT 'delete', old.sort_rank, old.search_key, old.search_facets WHERE old.sort_rank IS NOT NULL;
                        INSERT INTO course_search (rowid, search_key, search_facets)
                        SELECT new.sort_rank, new.search_key, new.search_facets WHERE new.sort_rank IS NOT NULL;
                    END;
                    """)
        }
        try old.close()

        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)

        // FTS5 writes its structure record (id 10) again with every change to the index it commits.
        func structure() async throws -> Data? {
            try await database.writer.read { db in try Data.fetchOne(db, sql: "SELECT block FROM course_search_data WHERE id = 10") }
        }
        let before = try await structure()
        let changed = try await database.writer.write { db in
            try db.execute(sql: "UPDATE course SET enrolled_count = enrolled_count + 1 WHERE id = 'swift-fundamentals'")
            return db.changesCount
        }
        let trigger = try await database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'course_search_update'")
        }
        #expect(trigger == CatalogOrder.searchUpdateTrigger(.v9))
        #expect(changed == 1)
        #expect(before != nil)
        #expect(try await structure() == before, "a seat taken in a course with seats left: the index not written")
    }

    @Test("rows of the version before keep their meaning: a completion stays met, a course left keeps its lessons and comes back")
    func migratesCompletionToHistory() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let old = try Self.database(in: directory, migratedUpTo: "v13-email-key")
        let demo = try await old.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM user") } ?? 0
        try await old.write { db in
            try db.execute(sql: "DELETE FROM lesson_progress; DELETE FROM enrollment")
            try db.execute(
                sql: """
                    INSERT INTO enrollment (id, user_id, course_id, enrolled_at, status, progress, completed_at) VALUES
                        (1, ?1, 'linux-command-line', '2026-01-02 10:00:00.000', 'completed', 0, NULL),
                        (2, ?1, 'git-mastery', '2026-01-03 10:00:00.000', 'dropped', 0, '2026-01-09 10:00:00.000'),
                        (3, ?1, 'swift-fundamentals', '2026-01-04 10:00:00.000', 'dropped', 0, NULL);
                    INSERT INTO lesson_progress (enrollment_id, position, done_at) VALUES
                        (1, 1, '2026-01-05 10:00:00.000'), (1, 2, '2026-01-06 10:00:00.000'),
                        (3, 1, '2026-01-05 10:00:00.000'), (3, 2, '2026-01-05 11:00:00.000');
                    """, arguments: [demo])
        }
        try old.close()

        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast)
        let sut = SQLiteEnrollmentRepository(database: database)

        let listed = try await sut.enrolledCourses(userID: UserID(demo))
        // Last active: the lessons of one (the 6th), the joining of the other (the 3rd).
        #expect(listed.map(\.id) == ["linux-command-line", "git-mastery"])
        #expect(
            listed.map(\.enrollment.lastActiveAt) == [
                Date(timeIntervalSince1970: 1_767_693_600), Date(timeIntervalSince1970: 1_767_434_400),
            ])
        #expect(listed.first?.enrollment.completedAt == Date(timeIntervalSince1970: 1_767_693_600), "its last lesson's date")
        let open = try await SQLiteCourseRepository(database: database).page(
            matching: "is:open git beyond", for: UserID(demo), at: .first, limit: 5)
        #expect(open.map(\.course.id) == ["git-mastery"], "after a completion without its date")
        let pipelines = try await SQLiteCourseRepository(database: database).page(
            matching: "is:open pipelines", for: UserID(demo), at: .first, limit: 5)
        #expect(pipelines.map(\.course.id) == ["ci-cd-pipelines"], "after a course completed, then left")
        let back = try await sut.enroll(userID: UserID(demo), courseID: "swift-fundamentals")
        #expect(back.lessonsDone == [1, 2])
        #expect(back.status == .active)
    }

    @Test("a row stored out of range is an error for that row; the rest of the catalog still loads, page by page")
    func damagedRow() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let courses = (1...30).map { Course.fixture(id: CourseID("c-\($0)"), title: "Course \(String(format: "%02d", $0))") }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { courses.entries })
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE course SET enrolled_count = 9.2e18 WHERE id IN ('c-3', 'c-4', 'c-5')")
            try db.execute(sql: "UPDATE course SET capacity = 0 WHERE id = 'c-20'")
        }
        let sut = SQLiteCourseRepository(database: database)

        await #expect(throws: AppError.self) { try await sut.course(id: "c-4") }
        var seen: [CourseID] = []
        var position = CatalogPosition.first
        while true {
            let page = try await sut.page(matching: "", at: position, limit: 4)
            seen += page.map(\.course.id)
            guard page.count == 4, let last = page.last else { break }
            position = .after(last.key)
        }
        #expect(seen == courses.map(\.id).filter { !["c-3", "c-4", "c-5", "c-20"].contains($0) })
        #expect(try await sut.course(id: "c-6").title == "Course 06")
    }
}

extension PasswordHasher {
    /// Few rounds, so tests that create accounts stay quick.
    static let fast = PasswordHasher(rounds: 1_000)
}
