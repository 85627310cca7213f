import Foundation
import GRDB
import SharedKernel
@testable import Storage
import Testing
import TestSupport

/// Issue 7's storage proof on real SQLite with a generated 100 k catalog: pages cover the
/// catalog exactly once in order both ways, search agrees with brute force, and the page
/// queries walk an index instead of sorting.
@Suite("Catalog paging and search on 100 k courses")
struct CatalogPagingTests {
    /// Built once for the suite; the directory has a fixed name, so a run leaves at most one.
    static let fixture: (database: AppDatabase, courses: [Course], index: BruteForceIndex)? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-tests-catalog-100k")
        try? FileManager.default.removeItem(at: directory)
        let courses = GeneratedCatalog.courses(count: 100_000)
        guard let database = try? AppDatabase.open(directory: directory, passwordHasher: .fast, seedCatalog: { courses.entries }) else {
            return nil
        }
        return (database, courses, BruteForceIndex(courses))
    }()

    @Test("paging forwards returns every course exactly once, in catalog order, with rising keys")
    func forwards() async throws {
        let (database, _, index) = try #require(Self.fixture)
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
        let (database, _, index) = try #require(Self.fixture)
        let sut = SQLiteCourseRepository(database: database)

        var rows: [CatalogRow] = try await sut.page(matching: "", at: .last, limit: 1_009)
        var all = rows
        while let first = rows.first {
            rows = try await sut.page(matching: "", at: .before(first.key), limit: 1_009)
            all = rows + all
        }

        #expect(all.map(\.course.id) == index.rows.map(\.course.id))
    }

    @Test("search results, paged to the end, equal a brute-force filter in catalog order", arguments: [
        "swift", "swi", "garc", "GARCÍA", "garcia", "nunez", "Núñez", "über", "uber", "ecriture", "fra",
        "data fund", "o b", "e", "日本", "入門", "12345", "9", "zzz", "kubernetes work", "-", "\"swift\"", "a*",
    ])
    func searchAgreesWithBruteForce(query: String) async throws {
        let (database, _, index) = try #require(Self.fixture)
        let sut = SQLiteCourseRepository(database: database)
        let expected = index.matches(query).map(\.course.id)

        var rows = try await sut.page(matching: query, at: .first, limit: 4_999)
        var found = rows
        while let last = rows.last {
            rows = try await sut.page(matching: query, at: .after(last.key), limit: 4_999)
            found += rows
        }
        let backwards = try await sut.page(matching: query, at: .last, limit: 25)

        #expect(found.map(\.course.id) == expected)
        #expect(backwards.map(\.course.id) == Array(expected.suffix(25)))
        let count = try await sut.count(matching: query)
        #expect(count == (expected.count > 10_000 ? .atLeast(10_000) : .exactly(expected.count)))
    }

    @Test("every page query walks an index in order: no table scan, no sort", arguments: [
        (false, false, false), (false, true, false), (false, true, true), (false, false, true),
        (true, false, false), (true, true, false), (true, true, true), (true, false, true),
    ])
    func queryPlans(searching: Bool, bounded: Bool, descending: Bool) async throws {
        let (database, _, _) = try #require(Self.fixture)
        let sql = SQLiteCourseRepository.pageSQL(searching: searching, bounded: bounded, descending: descending)
        let plan = try await database.writer.read { db in
            var arguments = StatementArguments()
            if searching { _ = arguments.append(contentsOf: ["\"swift\"*"]) }
            if bounded { _ = arguments.append(contentsOf: [500 * CatalogOrder.gap]) }
            _ = arguments.append(contentsOf: [50])
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: arguments).map { $0["detail"] as String }
        }

        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "sorts: \(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN course") && !$0.contains("VIRTUAL TABLE") }, "scans: \(plan)")
        if searching {
            #expect(plan.contains { $0.contains("course_search VIRTUAL TABLE") }, "\(plan)")
            #expect(plan.contains { $0.contains("SEARCH course USING INDEX course_by_rank (sort_rank=?)") }, "\(plan)")
        } else {
            #expect(plan.contains { $0.contains("course_by_rank") }, "\(plan)")
        }
    }
}
