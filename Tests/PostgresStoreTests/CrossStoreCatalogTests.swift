import Foundation
import GRDB
import Platform
import PostgresStore
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

@testable import Storage

/// The same generated 100 k catalog, with the same learner's favourites and enrollments, in
/// SQLite and in PostgreSQL: every query pages to the same ids, in the same order, both ways,
/// with the same counts.
@Suite(
    "Catalog: SQLite and PostgreSQL agree at 100 k", .serialized, .buildsLargeData,
    .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct CrossStoreCatalogTests {
    struct Fixture: Sendable {
        let index: BruteForceIndex
        let sqlite: SQLiteCourseRepository
        let postgres: PostgresCourseRepository
        let sqliteLearner: UserID
        let postgresLearner: UserID
    }

    static let size = 100_000
    /// The demo learner keeps every 997th course, is enrolled in every 1 009th and has
    /// completed every 2 003rd (which opens the courses that need them).
    static let favourites = stride(from: 997, to: size, by: 997).map { GeneratedCatalog.id($0) }
    static let active = Set(stride(from: 1_009, to: size, by: 1_009).map { GeneratedCatalog.id($0) })
    static let completed = Set(stride(from: 2_003, to: size, by: 2_003).map { GeneratedCatalog.id($0) }).subtracting(active)

    /// Built once for the suite, by the first test that asks. Its PostgreSQL database goes
    /// with the test cluster (CI's is thrown away after the run).
    static let fixtures = Fixtures()

    actor Fixtures {
        private var building: Task<Fixture, any Error>?

        func fixture() async throws -> Fixture {
            if building == nil { building = Task { try await CrossStoreCatalogTests.build() } }
            return try await building!.value
        }
    }

    static func build() async throws -> Fixture {
        // Generated and seeded on a thread of their own: tens of seconds of synchronous work.
        let (courses, sqlite) = try await onOwnThread {
            let courses = GeneratedCatalog.courses(count: size)
            let directory = TemporaryDirectory(prefix: "edugo-tests-cross-store")
            let sqlite = try AppDatabase.open(
                directory: directory.url, passwordHasher: TestPasswordHasher.cheap, seedCatalog: { courses.map { CourseEntry(course: $0) } }
            )
            return (courses, sqlite)
        }
        try await sqlite.writer.write { db in
            for id in favourites {
                try db.execute(sql: "INSERT INTO favourite (user_id, course_id, created_at) VALUES (1, ?, ?)", arguments: [id, Date()])
            }
            for id in active.union(completed) {
                let done = completed.contains(id)
                try db.execute(
                    sql:
                        "INSERT INTO enrollment (user_id, course_id, enrolled_at, status, progress, completed_at) VALUES (1, ?, ?, ?, 0, ?)",
                    arguments: [id, Date(), done ? "completed" : "active", done ? Date() : nil]
                )
            }
        }
        let postgres = try await PostgresTestDatabase.migrated(courses: courses.map { (course: $0, lessons: nil) })
        let learner = try await AccountService(store: PostgresAccountStore(database: postgres.database), hasher: TestPasswordHasher.cheap)
            .authenticate(email: DemoAccount.email, password: DemoAccount.password)
        let list = { (ids: [String]) in ids.map { "'\($0)'" }.joined(separator: ", ") }
        try await postgres.database.execute(
            """
            INSERT INTO favourite (user_id, course_id, course_rank, created_at)
            SELECT \(learner.id.rawValue), id, sort_rank, now() FROM course WHERE id IN (\(list(favourites)))
            """)
        try await postgres.database.execute(
            """
            INSERT INTO enrollment (user_id, course_id, course_rank, enrolled_at, status, completed_at)
            SELECT \(learner.id.rawValue), id, sort_rank, now(),
                CASE WHEN id IN (\(list(Array(completed)))) THEN 'completed' ELSE 'active' END,
                CASE WHEN id IN (\(list(Array(completed)))) THEN now() END
            FROM course WHERE id IN (\(list(Array(active.union(completed)))))
            """)
        return Fixture(
            index: BruteForceIndex(courses),
            sqlite: SQLiteCourseRepository(database: sqlite), postgres: PostgresCourseRepository(database: postgres.database),
            sqliteLearner: UserID(1), postgresLearner: learner.id
        )
    }

    /// Every row of `query`, paged forwards then backwards.
    static func everyRow(_ store: any CourseRepository, _ query: CatalogQuery, learner: UserID, limit: Int) async throws -> (
        forwards: [CourseID], backwards: [CourseID]
    ) {
        var rows = try await store.page(query, for: learner, at: .first, limit: limit)
        var forwards = rows
        while let last = rows.last {
            rows = try await store.page(query, for: learner, at: .after(last.key), limit: limit)
            forwards += rows
        }
        rows = try await store.page(query, for: learner, at: .last, limit: limit + 2)
        var backwards = rows
        while let first = rows.first {
            rows = try await store.page(query, for: learner, at: .before(first.key), limit: limit + 2)
            backwards = rows + backwards
        }
        return (forwards.map(\.course.id), backwards.map(\.course.id))
    }

    @Test("the whole catalog, paged both ways")
    func wholeCatalog() async throws {
        let fixture = try await Self.fixtures.fixture()
        let sqlite = try await Self.everyRow(fixture.sqlite, CatalogQuery.parse(""), learner: fixture.sqliteLearner, limit: 997)
        let postgres = try await Self.everyRow(fixture.postgres, CatalogQuery.parse(""), learner: fixture.postgresLearner, limit: 997)

        #expect(sqlite.forwards.count == Self.size)
        #expect(postgres.forwards == sqlite.forwards)
        #expect(postgres.backwards == sqlite.forwards)
        #expect(try await fixture.postgres.count(CatalogQuery.parse(""), for: nil) == .exactly(Self.size))
    }

    @Test("search and filters: the same ids in the same order both ways, and the same count", arguments: GeneratedCatalog.searchQueries)
    func search(text: String) async throws {
        let fixture = try await Self.fixtures.fixture()
        let query = CatalogQuery.parse(text)

        // Counted first: PostgreSQL then keeps the lists of a search of common terms and pages
        // it from them (`TermLists`).
        #expect(
            try await fixture.postgres.count(query, for: fixture.postgresLearner) == fixture.sqlite.count(query, for: fixture.sqliteLearner)
        )
        let sqlite = try await Self.everyRow(fixture.sqlite, query, learner: fixture.sqliteLearner, limit: 4_999)
        let postgres = try await Self.everyRow(fixture.postgres, query, learner: fixture.postgresLearner, limit: 4_999)

        #expect(postgres.forwards == sqlite.forwards)
        #expect(postgres.backwards == sqlite.forwards)
        #expect(sqlite.backwards == sqlite.forwards)
    }

    /// The first `pages` pages, read forwards, and the last `pages`, read backwards: where
    /// a walk in an order could go wrong (page edges, ties across them, both ends), without
    /// reading every row in every order.
    static func ends(_ store: any CourseRepository, _ query: CatalogQuery, learner: UserID, limit: Int, pages: Int) async throws -> (
        first: [CourseID], last: [CourseID]
    ) {
        var rows = try await store.page(query, for: learner, at: .first, limit: limit)
        var first = rows
        for _ in 1..<pages {
            guard let last = rows.last else { break }
            rows = try await store.page(query, for: learner, at: .after(last.key), limit: limit)
            first += rows
        }
        rows = try await store.page(query, for: learner, at: .last, limit: limit)
        var last = rows
        for _ in 1..<pages {
            guard let edge = rows.first else { break }
            rows = try await store.page(query, for: learner, at: .before(edge.key), limit: limit)
            last = rows + last
        }
        return (first.map(\.course.id), last.map(\.course.id))
    }

    /// Every order, both ways round, over the whole catalog and searches of each shape: the
    /// words, a category (whose titles sort together: level order reads it level by level), a
    /// facet (whose order may be fixed by it), the learner's own list, `is:open`.
    static let orderCases: [(String, CatalogSort)] = ["", "swift", "cat:s", "level:adv", "is:favourite", "is:open cat:d"].flatMap { text in
        CatalogSort.Field.allCases.flatMap { field in [false, true].map { (text, CatalogSort(field, reversed: $0)) } }
    }

    @Test("every order: the same ids in the same order at both ends, read both ways, as the brute force sorts them", arguments: orderCases)
    func orders(text: String, sort: CatalogSort) async throws {
        let fixture = try await Self.fixtures.fixture()
        var query = CatalogQuery.parse(text)
        query.sort = sort

        let sqlite = try await Self.ends(fixture.sqlite, query, learner: fixture.sqliteLearner, limit: 997, pages: 3)
        let postgres = try await Self.ends(fixture.postgres, query, learner: fixture.postgresLearner, limit: 997, pages: 3)

        #expect(postgres.first == sqlite.first)
        #expect(postgres.last == sqlite.last)
        #expect(!sqlite.first.isEmpty)
        if !query.dependsOnLearner {
            let all = fixture.index.matches(query).map(\.course.id)
            #expect(sqlite.first == Array(all.prefix(sqlite.first.count)))
            #expect(sqlite.last == Array(all.suffix(sqlite.last.count)))
        } else {
            // The learner's own: fewer than the pages hold, so both ends are every match, the
            // same courses as in title order.
            var titleOrder = query
            titleOrder.sort = .title
            let unsorted = try await Self.everyRow(fixture.sqlite, titleOrder, learner: fixture.sqliteLearner, limit: 4_999)
            if unsorted.forwards.count < 997 * 3 {
                #expect(sqlite.first == sqlite.last)
                #expect(Set(sqlite.first) == Set(unsorted.forwards) && sqlite.first.count == unsorted.forwards.count)
            }
        }
        #expect(
            try await fixture.postgres.count(query, for: fixture.postgresLearner) == fixture.sqlite.count(query, for: fixture.sqliteLearner)
        )
    }
}
