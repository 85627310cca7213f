import Foundation
import GRDB
import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

@Suite("Enrollments in SQLite")
struct SQLiteEnrollmentRepositoryTests {
    static let catalog: [Course] = [
        .fixture(id: "open", title: "Open Course", capacity: 40, enrolledCount: 12),
        .fixture(id: "last-seat", title: "Last Seat", capacity: 10, enrolledCount: 9),
        .fixture(id: "full", title: "Full Course", capacity: 5, enrolledCount: 5),
        .fixture(id: "closed", title: "Closed Course", isActive: false),
        .fixture(id: "advanced", title: "Advanced Course", prerequisiteID: "open"),
    ]

    @Test(
        "a refusal writes nothing at all",
        arguments: [
            ("full", AppError.refused(.courseFull(title: "Full Course"))),
            ("closed", .refused(.courseInactive(title: "Closed Course"))),
            ("advanced", .refused(.prerequisiteNotCompleted(prerequisiteTitle: "Open Course"))),
            ("missing", .courseNotFound("missing")),
        ] as [(CourseID, AppError)])
    func refusals(courseID: CourseID, expected: AppError) async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try await database.signInDemo().id
        let before = try await snapshot(database)

        await #expect(throws: expected) { try await sut.enroll(userID: user, courseID: courseID) }

        #expect(try await snapshot(database) == before)
    }

    @Test("two connections racing for the last seat: exactly one wins, the other is told it is full")
    func lastSeatRace() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.catalog.entries })
        let second = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.catalog.entries })
        let ana = try await first.signInDemo().id
        let ben = try await first.addLearner("Ben", email: "ben@edugo.dev")
        let repositories = [SQLiteEnrollmentRepository(database: first), SQLiteEnrollmentRepository(database: second)]

        let results = await withTaskGroup(of: Result<Enrollment, AppError>.self) { group in
            for (repository, user) in zip(repositories, [ana, ben]) {
                group.addTask {
                    do throws(AppError) {
                        return .success(try await repository.enroll(userID: user, courseID: "last-seat"))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        let winners = results.filter { if case .success = $0 { true } else { false } }
        let losers = results.compactMap { if case .failure(let error) = $0 { error } else { nil } }
        #expect(winners.count == 1)
        #expect(losers == [.refused(.courseFull(title: "Last Seat"))])
        #expect(try await enrolledCount("last-seat", first) == 10)
        let rows = try await first.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM enrollment WHERE course_id = 'last-seat' AND status = 'active'")
        }
        #expect(rows == 1)
    }

    @Test("a write held up past the busy timeout by another program's write lock waits and completes after it is released")
    func waitsForAnotherWriter() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (waits, waited) = AsyncStream<Void>.makeStream()
        let database = try AppDatabase.open(
            directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.catalog.entries },
            busy: BusyPolicy(timeout: 0.2, waitingAgain: { waited.yield() })
        )
        let sut = SQLiteEnrollmentRepository(database: database)
        let user = try await database.signInDemo().id
        // Another process's connection holds the write lock for longer than the busy timeout.
        let other = try Self.connection(to: database)
        try other.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "UPDATE course SET title = 'Open Course, renamed' WHERE id = 'open'")
        }
        let enroll = Task { try await sut.enroll(userID: user, courseID: "open") }

        // The write waited a whole busy timeout, and waits again rather than failing.
        var iterator = waits.makeAsyncIterator()
        _ = await iterator.next()
        let storedWhileBusy = try other.inDatabase { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM enrollment") }
        try other.inDatabase { db in try db.execute(sql: "COMMIT") }

        #expect(try await enroll.value.status == .active)
        #expect(storedWhileBusy == 0)
        #expect(try await enrolledCount("open", database) == 13)
        #expect(try await SQLiteCourseRepository(database: database).course(id: "open").title == "Open Course, renamed")
    }

    @Test("marking a lesson is one transaction: the mark and the completion land together")
    func lessonTransaction() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try await database.signInDemo().id
        _ = try database.importCourses(entries: [
            CourseEntry(
                course: .fixture(id: "two", title: "Two Lessons"),
                lessons: [
                    Lesson(title: "First", minutes: 10), Lesson(title: "Second", minutes: 20),
                ])
        ])
        _ = try await sut.enroll(userID: user, courseID: "two")

        _ = try await sut.setLesson(1, done: true, userID: user, courseID: "two")
        let completed = try await sut.setLesson(2, done: true, userID: user, courseID: "two")
        try database.writer.close()
        let reopened = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })

        let stored = try await SQLiteEnrollmentRepository(database: reopened).enrolledCourses(userID: user).first
        #expect(stored?.enrollment.status == .completed)
        #expect(stored?.enrollment.lessonsDone == [1, 2])
        #expect(stored?.enrollment.completedAt != nil)
        #expect(stored?.enrollment.completedAt == completed.completedAt)
    }

    @Test(
        "a seat taken or freed writes the course's row in the search index only when its facets change: when the last seat is taken or freed"
    )
    func searchRowOnlyWhenFacetsChange() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }
        let ana = try await database.signInDemo().id
        let ben = try await database.addLearner("Ben", email: "ben@edugo.dev")
        let courses = SQLiteCourseRepository(database: database)
        func openToBen() async throws -> [CourseID] {
            try await courses.page(matching: "is:open", for: ben, at: .first, limit: 10).map(\.course.id)
        }
        // FTS5 writes its structure record (id 10) again with every change to the index.
        func structure() async throws -> Data? {
            try await database.writer.read { db in try Data.fetchOne(db, sql: "SELECT block FROM course_search_data WHERE id = 10") }
        }
        let untouched = try await structure()

        _ = try await sut.enroll(userID: ana, courseID: "open")
        try await sut.unenroll(userID: ana, courseID: "open")
        #expect(try await enrolledCount("open", database) == 12)
        #expect(try await structure() == untouched, "13 of 40 seats and back: the same facets, the index not written")

        #expect(try await openToBen().contains("last-seat"))
        _ = try await sut.enroll(userID: ana, courseID: "last-seat")
        #expect(try await structure() != untouched, "the last seat taken")
        #expect(try await !openToBen().contains("last-seat"))
        try await sut.unenroll(userID: ana, courseID: "last-seat")
        #expect(try await openToBen().contains("last-seat"), "the last seat freed")
        try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO course_search (course_search, rank) VALUES ('integrity-check', 1)")
        }
    }

    // MARK: - Helpers

    static func connection(to database: AppDatabase) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true  // held open across calls on purpose
        return try DatabaseQueue(path: database.path, configuration: configuration)
    }

    private func makeSUT() throws -> (SQLiteEnrollmentRepository, AppDatabase, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.catalog.entries })
        return (SQLiteEnrollmentRepository(database: database), database, directory)
    }

    private func enrolledCount(_ id: CourseID, _ database: AppDatabase) async throws -> Int? {
        try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT enrolled_count FROM course WHERE id = ?", arguments: [id.rawValue])
        }
    }

    /// Everything enrollment could touch, to prove a refusal changed nothing.
    private func snapshot(_ database: AppDatabase) async throws -> [String] {
        try await database.writer.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT 'course ' || id || ' ' || enrolled_count FROM course
                    UNION ALL SELECT 'enrollment ' || user_id || ' ' || course_id || ' ' || status FROM enrollment
                    ORDER BY 1
                    """)
        }
    }
}
