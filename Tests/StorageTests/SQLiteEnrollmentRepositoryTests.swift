import Foundation
import GRDB
import SharedKernel
@testable import Storage
import Testing
import TestSupport

@Suite("Enrollments in SQLite")
struct SQLiteEnrollmentRepositoryTests {
    static let catalog: [Course] = [
        .fixture(id: "open", title: "Open Course", capacity: 40, enrolledCount: 12),
        .fixture(id: "last-seat", title: "Last Seat", capacity: 10, enrolledCount: 9),
        .fixture(id: "full", title: "Full Course", capacity: 5, enrolledCount: 5),
        .fixture(id: "closed", title: "Closed Course", isActive: false),
        .fixture(id: "advanced", title: "Advanced Course", prerequisiteID: "open"),
    ]

    @Test("enrolling takes a seat and lists the course with 0% progress")
    func enroll() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try await demoUser(database)

        let enrollment = try await sut.enroll(userID: user, courseID: "open")

        #expect(enrollment.status == .active)
        #expect(enrollment.progress == 0)
        #expect(try await enrolledCount("open", database) == 13)
        let mine = try await sut.enrolledCourses(userID: user)
        #expect(mine.map(\.course.id) == ["open"])
        #expect(mine.first?.course.enrolledCount == 13)
    }

    @Test("unenrolling frees the seat and removes the course from the list")
    func unenroll() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try await demoUser(database)
        _ = try await sut.enroll(userID: user, courseID: "open")

        try await sut.unenroll(userID: user, courseID: "open")

        #expect(try await sut.enrolledCourses(userID: user) == [])
        #expect(try await enrolledCount("open", database) == 12)
        #expect(try await sut.enrollment(userID: user, courseID: "open")?.status == .dropped)
        await #expect(throws: AppError.notEnrolled("open")) { try await sut.unenroll(userID: user, courseID: "open") }
    }

    @Test("a dropped course can be taken again")
    func reenroll() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try await demoUser(database)
        _ = try await sut.enroll(userID: user, courseID: "open")
        try await sut.unenroll(userID: user, courseID: "open")

        _ = try await sut.enroll(userID: user, courseID: "open")

        #expect(try await sut.enrolledCourses(userID: user).map(\.course.id) == ["open"])
        #expect(try await enrolledCount("open", database) == 13)
    }

    @Test("the store refuses by the same rules and writes nothing", arguments: [
        ("full", AppError.refused(.courseFull(title: "Full Course"))),
        ("closed", .refused(.courseInactive(title: "Closed Course"))),
        ("advanced", .refused(.prerequisiteNotCompleted(prerequisiteTitle: "Open Course"))),
        ("missing", .courseNotFound("missing")),
    ] as [(CourseID, AppError)])
    func refusals(courseID: CourseID, expected: AppError) async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try await demoUser(database)
        let before = try await snapshot(database)

        await #expect(throws: expected) { try await sut.enroll(userID: user, courseID: courseID) }

        #expect(try await snapshot(database) == before)
    }

    @Test("enrolling twice is refused")
    func alreadyEnrolled() async throws {
        let (sut, database, directory) = try makeSUT()
        defer { directory.remove() }
        let user = try await demoUser(database)
        _ = try await sut.enroll(userID: user, courseID: "open")

        await #expect(throws: AppError.refused(.alreadyEnrolled(title: "Open Course"))) {
            try await sut.enroll(userID: user, courseID: "open")
        }
        #expect(try await enrolledCount("open", database) == 13)
    }

    @Test("two connections racing for the last seat: exactly one wins, the other is told it is full")
    func lastSeatRace() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.catalog })
        let second = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.catalog })
        let (ana, ben) = try await twoLearners(first)
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

    // MARK: - Helpers

    private func makeSUT() throws -> (SQLiteEnrollmentRepository, AppDatabase, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.catalog })
        return (SQLiteEnrollmentRepository(database: database), database, directory)
    }

    private func demoUser(_ database: AppDatabase) async throws -> UserID {
        let user = try await database.signInDemo()
        return try #require(user).id
    }

    private func twoLearners(_ database: AppDatabase) async throws -> (UserID, UserID) {
        let ana = try await demoUser(database)
        let ben = try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO user (name, email, password_hash, created_at) VALUES ('Ben', 'ben@edugo.dev', 'x', ?)", arguments: [Date()])
            return UserID(db.lastInsertedRowID)
        }
        return (ana, ben)
    }

    private func enrolledCount(_ id: CourseID, _ database: AppDatabase) async throws -> Int? {
        try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT enrolled_count FROM course WHERE id = ?", arguments: [id.rawValue])
        }
    }

    /// Everything enrollment could touch, to prove a refusal changed nothing.
    private func snapshot(_ database: AppDatabase) async throws -> [String] {
        try await database.writer.read { db in
            try String.fetchAll(db, sql: """
                SELECT 'course ' || id || ' ' || enrolled_count FROM course
                UNION ALL SELECT 'enrollment ' || user_id || ' ' || course_id || ' ' || status FROM enrollment
                ORDER BY 1
                """)
        }
    }
}
