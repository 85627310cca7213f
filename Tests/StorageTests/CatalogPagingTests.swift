import Foundation
import GRDB
import GRDBSQLite
import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

/// The storage proof on real SQLite with a generated 100 k catalog: pages cover the catalog
/// exactly once in order both ways, search and every filter agree with brute force (paged to
/// the end both ways), and every page query walks an index instead of scanning or sorting.
@Suite("Catalog paging, search and filters on 100 k courses", .buildsLargeData)
struct CatalogPagingTests {
    struct Fixture: Sendable {
        let database: AppDatabase
        let courses: [Course]
        let index: BruteForceIndex
        let learner: UserID
        let favourites: Set<CourseID>
        let enrolled: Set<CourseID>
        let completed: Set<CourseID>
        let known: Set<CourseID>

        /// How the learner relates to a course, as arranged.
        func marks(_ course: Course) -> CourseMarks {
            CourseMarks(
                isFavourite: favourites.contains(course.id),
                enrollment: enrolled.contains(course.id)
                    ? .fixture(courseID: course.id, status: completed.contains(course.id) ? .completed : .active) : nil,
                prerequisiteMet: course.prerequisiteID.map { !known.contains($0) || completed.contains($0) } ?? true
            )
        }

        /// The steps SQLite's `EXPLAIN QUERY PLAN` gives for a statement.
        func queryPlan(_ sql: String, _ arguments: StatementArguments) async throws -> [String] {
            try await database.writer.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: arguments).map { $0["detail"] as String }
            }
        }
    }

    /// Built once for the suite, in a directory of this process's own: two runs at once (two
    /// checkouts, CI beside a developer) once deleted each other's database mid-suite. What a
    /// finished run left behind is removed, so at most one is left per run still going.
    static let fixtures = BuiltOnce<Fixture?> {
        let temporary = FileManager.default.temporaryDirectory
        let prefix = "edugo-tests-catalog-100k-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
        let directory = temporary.appendingPathComponent(prefix + String(getpid()))
        try? FileManager.default.removeItem(at: directory)
        let courses = GeneratedCatalog.courses(count: 100_000)
        guard let database = try? AppDatabase.open(directory: directory, passwordHasher: .fast, seedCatalog: { courses.entries }) else {
            return nil
        }
        // The demo learner keeps every 997th course, is enrolled in every 1 009th and has
        // completed every 2 003rd (which opens the courses that need them).
        let favourites = Set(stride(from: 997, to: 100_000, by: 997).map { CourseID(GeneratedCatalog.id($0)) })
        let active = Set(stride(from: 1_009, to: 100_000, by: 1_009).map { CourseID(GeneratedCatalog.id($0)) })
        let completed = Set(stride(from: 2_003, to: 100_000, by: 2_003).map { CourseID(GeneratedCatalog.id($0)) }).subtracting(active)
        let arranged: Void? = try? database.writer.write { db in
            for id in favourites {
                try db.execute(
                    sql: "INSERT INTO favourite (user_id, course_id, created_at) VALUES (1, ?, ?)", arguments: [id.rawValue, Date()])
            }
            for id in active.union(completed) {
                try db.execute(
                    sql:
                        "INSERT INTO enrollment (user_id, course_id, enrolled_at, status, progress, completed_at) VALUES (1, ?, ?, ?, 0, ?)",
                    arguments: [
                        id.rawValue, Date(), completed.contains(id) ? "completed" : "active", completed.contains(id) ? Date() : nil,
                    ]
                )
            }
        }
        guard arranged != nil else { return nil }
        return Fixture(
            database: database, courses: courses, index: BruteForceIndex(courses), learner: UserID(1),
            favourites: favourites, enrolled: active.union(completed), completed: completed, known: Set(courses.map(\.id))
        )
    }

    @Test("paging forwards returns every course exactly once, in catalog order, with rising keys")
    func forwards() async throws {
        let fixture = try #require(await Self.fixtures.value())
        let (database, index) = (fixture.database, fixture.index)
        let sut = SQLiteCourseRepository(database: database)

        var rows: [CatalogRow] = try await sut.page(matching: "", at: .first, limit: 997)
        var all = rows
        while let last = rows.last {
            rows = try await sut.page(matching: "", at: .after(last.key), limit: 997)
            all += rows
        }

        #expect(all.map(\.course.id) == index.rows.map(\.course.id))
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.key < $1.key })
        #expect(try await sut.count(matching: "") == .exactly(100_000))
    }

    @Test("paging backwards from the end returns the same courses in the same order")
    func backwards() async throws {
        let fixture = try #require(await Self.fixtures.value())
        let (database, index) = (fixture.database, fixture.index)
        let sut = SQLiteCourseRepository(database: database)

        var rows: [CatalogRow] = try await sut.page(matching: "", at: .last, limit: 1_009)
        var all = rows
        while let first = rows.first {
            rows = try await sut.page(matching: "", at: .before(first.key), limit: 1_009)
            all = rows + all
        }

        #expect(all.map(\.course.id) == index.rows.map(\.course.id))
    }

    @Test(
        "search and filters, paged to the end both ways, equal a brute-force filter in catalog order",
        arguments: GeneratedCatalog.searchQueries)
    func searchAgreesWithBruteForce(query: String) async throws {
        let fixture = try #require(await Self.fixtures.value())
        let sut = SQLiteCourseRepository(database: fixture.database)
        let parsed = CatalogQuery.parse(query)
        let expected = fixture.index.matches(parsed, marks: fixture.marks).map(\.course.id)

        var rows = try await sut.page(parsed, for: fixture.learner, at: .first, limit: 4_999)
        var found = rows
        while let last = rows.last {
            rows = try await sut.page(parsed, for: fixture.learner, at: .after(last.key), limit: 4_999)
            found += rows
        }
        rows = try await sut.page(parsed, for: fixture.learner, at: .last, limit: 3_001)
        var backwards = rows
        while let first = rows.first {
            rows = try await sut.page(parsed, for: fixture.learner, at: .before(first.key), limit: 3_001)
            backwards = rows + backwards
        }

        #expect(found.map(\.course.id) == expected)
        #expect(backwards.map(\.course.id) == expected)
        let count = try await sut.count(parsed, for: fixture.learner)
        let limit = parsed.countLimit
        #expect(count == (expected.count > limit ? .atLeast(limit) : .exactly(expected.count)))
    }

    /// Every shape a page query can take: the learner's list walked, words or facets
    /// searched, `is:open`'s own conditions, a bound, a direction.
    static let shapes: [(mine: String, match: Bool, open: Bool)] = ["", "is:favourite", "is:enrolled", "is:favourite is:enrolled"]
        .flatMap { mine in [false, true].flatMap { match in [false, true].map { open in (mine, match, open) } } }

    @Test("every page query walks an index in order: no table scan, no sort", arguments: shapes)
    func queryPlans(mine: String, match: Bool, open: Bool) async throws {
        let fixture = try #require(await Self.fixtures.value())
        let query = CatalogQuery.parse([mine, match ? "swift cat:d" : "", open ? "is:open" : ""].joined(separator: " "))
        for (bound, descending) in [(nil, false), (500 * CatalogOrder.gap, false), (500 * CatalogOrder.gap, true), (nil, true)]
            as [(Int64?, Bool)]
        {
            let (sql, arguments) = SQLiteCourseRepository.pageSQL(
                FullTextQuery(query), learner: fixture.learner, bound: bound.map { CatalogKey($0) }, descending: descending, limit: 50)
            let plan = try await fixture.queryPlan(sql, arguments)

            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "sorts: \(query.text) \(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN") && !$0.contains("VIRTUAL TABLE") }, "scans: \(query.text) \(plan)")
        }
    }

    @Test(
        "filters alone walk the rarest filter's matches in the index, the others checked on the row: no table scan, no sort",
        arguments: [
            ("is:free level:adv", #"search_facets : "_isfree""#), ("level:beg cat:numismatics", #"search_facets : ("_catnumismatics")"#),
            ("is:open level:int", #"search_facets : "_lvlintermediate""#), ("cat:d level:adv is:free", #"search_facets : "_isfree""#),
        ])
    func filtersAlone(query text: String, rarest: String) async throws {
        let fixture = try #require(await Self.fixtures.value())
        let sut = SQLiteCourseRepository(database: fixture.database)
        let query = CatalogQuery.parse(text)

        let plan = try await fixture.database.writer.read { db in try sut.plan(of: query, in: db) }

        #expect(plan.match == rarest)
        #expect(plan.checksFiltersOnRows)
        for (bound, descending) in [(nil, false), (500 * CatalogOrder.gap, true)] as [(Int64?, Bool)] {
            let (sql, arguments) = SQLiteCourseRepository.pageSQL(
                plan, learner: fixture.learner, bound: bound.map { CatalogKey($0) }, descending: descending, limit: 50)
            let steps = try await fixture.queryPlan(sql, arguments)
            #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "sorts: \(text) \(steps)")
            #expect(!steps.contains { $0.hasPrefix("SCAN") && !$0.contains("VIRTUAL TABLE") }, "scans: \(text) \(steps)")
        }
    }

    @Test(
        "words, one filter, or a learner's list: the index is asked for every term together",
        arguments: [
            "swift is:free", "is:free", "is:favourite is:free level:adv", "",
        ])
    func notDriven(query text: String) async throws {
        let fixture = try #require(await Self.fixtures.value())
        let sut = SQLiteCourseRepository(database: fixture.database)
        let query = CatalogQuery.parse(text)

        let plan = try await fixture.database.writer.read { db in try sut.plan(of: query, in: db) }

        #expect(plan.match == FullTextQuery(query).match)
        #expect(!plan.checksFiltersOnRows)
    }

    /// Thousands of SQLite's virtual-machine steps (a progress handler's calls) a read of
    /// `db` took: the work a query plan does, counted, the same on every run and machine.
    static func steps<T>(in db: Database, _ read: () throws -> T) rethrows -> (T, steps: Int) {
        var count = 0
        return try withUnsafeMutablePointer(to: &count) { counter in
            sqlite3_progress_handler(
                db.sqliteConnection, 1_000,
                { context in
                    context?.assumingMemoryBound(to: Int.self).pointee += 1
                    return 0
                }, counter)
            defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
            return (try read(), counter.pointee)
        }
    }

    @Test(
        "a search with many matches in level order reads its pages level by level, not a level's titles before the matches",
        arguments: ["cat:s", "cat:d", "s"])
    func levelOrderSteps(text: String) async throws {
        let fixture = try #require(await Self.fixtures.value())
        let sut = SQLiteCourseRepository(database: fixture.database)
        for sort in [CatalogSort(.level), CatalogSort(.level, reversed: true)] {
            var parsed = CatalogQuery.parse(text)
            parsed.sort = sort
            let query = parsed
            let expected = fixture.index.matches(query).map(\.course.id)
            // A category's titles sort together (`Schach …`, `SQL …`): walking the level index,
            // the first page of `cat:s` passed every beginner from `A` on, 19 k rows.
            // Read once first: the counts that choose the plan are kept, and not counted again.
            for position in [CatalogPosition.first, .last] { _ = try await sut.page(query, for: fixture.learner, at: position, limit: 20) }
            let (first, steps) = try await fixture.database.writer.read { db in
                try Self.steps(in: db) { try sut.page(query, for: fixture.learner, at: .first, limit: 20, in: db) }
            }
            let (last, lastSteps) = try await fixture.database.writer.read { db in
                try Self.steps(in: db) { try sut.page(query, for: fixture.learner, at: .last, limit: 20, in: db) }
            }
            #expect(first.map(\.course.id) == Array(expected.prefix(20)), "\(text) \(sort)")
            #expect(last.map(\.course.id) == Array(expected.suffix(20)), "\(text) \(sort)")
            // Walking the level index: 148 and 31 thousand steps; level by level: 1 or none.
            #expect(steps < 10 && lastSteps < 10, "\(text) \(sort): \(steps), \(lastSteps) thousand steps")
        }
    }

    @Test("the whole catalog in every order walks that order's index: no table scan, no sort", arguments: CatalogSort.Field.allCases)
    func orderPlans(field: CatalogSort.Field) async throws {
        let fixture = try #require(await Self.fixtures.value())
        for bound in [nil, CatalogKey(500 * CatalogOrder.gap, sortValue: 1_000)] as [CatalogKey?] {
            for descending in [false, true] {
                let (sql, arguments) = SQLiteCourseRepository.pageSQL(
                    FullTextQuery(CatalogQuery.parse("")), learner: fixture.learner, sort: CatalogSort(field), bound: bound,
                    descending: descending, limit: 50)
                let plan = try await fixture.queryPlan(sql, arguments)

                #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "sorts: \(field) \(plan)")
                #expect(!plan.contains { $0.hasPrefix("SCAN") && !$0.contains("INDEX") }, "scans: \(field) \(plan)")
            }
        }
    }
}
