import Foundation
import PostgresNIO
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

@testable import PostgresStore

/// How PostgreSQL is asked for a page, checked on the statement and the plan it makes rather
/// than timed (BENCHMARKS, "A school's read mix"). Two terms of like length are merged, as
/// their count merges them. A search with few matches in an order other than title's sorts
/// its matches; handed the order's column, PostgreSQL's planner walked that order's index and
/// probed every course for the term whenever it took a rare term for a common one:
/// `cat:Numismatics` (10 of 1 M courses) in price order took 3.9 s, past the 5 s limit under
/// the Zipf mix. With `enable_sort` off the planner takes an index's order whenever one gives
/// it, so the test's small catalog makes the choice a misestimate made at 1 M.
@Suite(
    "PostgreSQL: how a page reads the catalog, checked on its statement and its plan",
    .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresCatalogPlanTests {
    static let sorts = ["price", "-price", "duration", "-duration", "level", "-level", "newest", "-newest"]

    @Test("a rare category in every order but title's", arguments: sorts)
    func fewMatchesSorted(sort: String) async throws {
        let order = try #require(CatalogSort(apiText: sort))
        // 3 of 240 courses in the rare category, their prices, durations and levels
        // unlike their titles' order.
        let courses = (0..<240).map { index in
            let rare = index % 80 == 7
            return Course.fixture(
                id: CourseID(String(format: "plan-%03d", index)), title: String(format: "Course %03d", index),
                category: rare ? "Numismatics" : "Business", level: CourseLevel.allCases[(index * 7) % CourseLevel.allCases.count],
                durationMinutes: 30 + (index * 37) % 200, price: Price(minorUnits: 100 + (index * 53) % 900, currency: "EUR"))
        }
        let test = try await PostgresTestDatabase.migrated(
            courses: courses.map { (course: $0, lessons: nil) },
            settings: [(name: "enable_sort", value: "off"), (name: "pg_stat_statements.track", value: "top")])
        do {
            try await test.database.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            let repository = PostgresCourseRepository(database: test.database)
            var query = CatalogQuery.parse("cat:numismatics")
            query.sort = order
            let page = try await repository.page(query, for: nil, at: .first, limit: 20)
            let rare = courses.filter { $0.category == "Numismatics" }
            #expect(Set(page.map(\.course.id)) == Set(rare.map(\.id)), "the page holds the category's courses")
            let keys = page.map(\.key)
            #expect(keys == (order.descending ? keys.sorted(by: >) : keys.sorted()), "in \(sort) order")
            #expect(Set(keys.compactMap(\.sortValue)).count > 1, "the order's values differ")

            let plans = try await Self.plans(
                of: "FROM course_term AS walked", in: test, binds: ["'#catnumismatics'", "20"], constants: ["0"])
            try #require(!plans.isEmpty, "no page statement of a walked term was run")
            for plan in plans {
                #expect(!plan.contains("course_by_"), "\(sort): the page walks an order's index:\n\(plan)")
            }

            // The whole catalog still walks the order's index: a page of it stops after its rows.
            var everything = CatalogQuery.parse("")
            everything.sort = order
            #expect(try await repository.page(everything, for: nil, at: .first, limit: 20).count == 20)
            let walks = try await Self.plans(of: "FROM course\nWHERE", in: test, binds: ["20"], constants: ["true"])
            try #require(!walks.isEmpty, "no page statement of the whole catalog was run")
            for plan in walks {
                #expect(plan.contains("course_by_"), "\(sort): the whole catalog is sorted:\n\(plan)")
            }
            await test.drop()
        } catch {
            await test.drop()
            throw error
        }
    }

    @Test("two words of like length: a page merges their lists, as their count does, and finds the courses both name")
    func likeTermsMerged() async throws {
        // `alpha` in every second title, `beta` in every third: a course in six has both.
        let courses = (0..<120).map { index in
            let words = [index % 2 == 0 ? "Alpha" : "Gamma", index % 3 == 0 ? "Beta" : "Delta"]
            return Course.fixture(
                id: CourseID(String(format: "pair-%03d", index)), title: "\(words.joined(separator: " ")) \(String(format: "%03d", index))")
        }
        let test = try await PostgresTestDatabase.migrated(
            courses: courses.map { (course: $0, lessons: nil) }, settings: [(name: "pg_stat_statements.track", value: "top")])
        do {
            try await test.database.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            let repository = PostgresCourseRepository(database: test.database)
            let query = CatalogQuery.parse("alpha beta")
            let counted = try await repository.countedPage(query, for: nil, at: .first, limit: 15)
            let both = courses.filter { $0.title.hasPrefix("Alpha Beta") }.map(\.id)
            #expect(counted.total == .exactly(both.count))
            #expect(counted.rows.map(\.course.id) == Array(both.prefix(15)), "in title order")
            let rest = try await repository.page(query, for: nil, at: .after(try #require(counted.rows.last).key), limit: 15)
            #expect(rest.map(\.course.id) == Array(both.dropFirst(15)))

            let back = try await repository.page(query, for: nil, at: .before(try #require(rest.last).key), limit: 15)
            #expect(back.map(\.course.id) == Array(both.dropLast().suffix(15)), "backwards")

            let merged = try await Self.statements(of: "FROM course_term AS walked JOIN course_term AS joined0", in: test)
            #expect(merged.count == 3, "the first page, the next and the one before merge the two lists: \(merged)")
            // A page after (or before) a course starts both lists there, not the merged one at its start.
            #expect(merged.filter { $0.contains("joined0.rank >") }.count == 1, "\(merged)")
            #expect(merged.filter { $0.contains("joined0.rank <") }.count == 1, "\(merged)")
            await test.drop()
        } catch {
            await test.drop()
            throw error
        }
    }

    /// The page statements (those with an order) read from `source` that the test's database ran.
    static func statements(of source: String, in test: PostgresTestDatabase) async throws -> [String] {
        try await test.database.read { connection in
            try await Array(
                collecting: connection.query(
                    """
                    SELECT query FROM pg_stat_statements
                    WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                        AND strpos(query, \(source)) > 0 AND query LIKE '%ORDER BY%'
                    """, logger: test.database.logger
                ).decode(String.self))
        }
    }

    /// The plans of the page statements read from `source`, planned again on a connection of
    /// the test's database (the same settings) with `binds` for their parameters. A statement's
    /// text in `pg_stat_statements` may have its `constants` made parameters after its own
    /// (`+ 0` in an order, `WHERE true`), or keep them, as the entry was made.
    static func plans(of source: String, in test: PostgresTestDatabase, binds: [String], constants: [String]) async throws -> [String] {
        let statements = try await statements(of: source, in: test)
        return try await test.database.read { connection in
            var plans: [String] = []
            // Names of their own: a test that failed before its DEALLOCATE leaves its plan on a
            // connection of the pool.
            let prefix = "plan_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
            for (index, statement) in statements.enumerated() {
                let parameters = Set(statement.matches(of: /\$([0-9]+)/).compactMap { Int($0.1) }).count
                guard (binds.count...binds.count + constants.count).contains(parameters) else {
                    throw ServerTestError("\(parameters) parameters for \(binds.count) values: \(statement)")
                }
                let values = (binds + constants).prefix(parameters).joined(separator: ", ")
                try await connection.query(
                    PostgresQuery(unsafeSQL: "PREPARE \(prefix)_\(index) AS \(statement)"), logger: test.database.logger)
                let lines = try await Array(
                    collecting: connection.query(
                        PostgresQuery(unsafeSQL: "EXPLAIN EXECUTE \(prefix)_\(index)(\(values))"), logger: test.database.logger
                    )
                    .decode(String.self))
                try await connection.query(PostgresQuery(unsafeSQL: "DEALLOCATE \(prefix)_\(index)"), logger: test.database.logger)
                plans.append(lines.joined(separator: "\n"))
            }
            return plans
        }
    }
}
