import Foundation
import Logging
import PostgresNIO
import SharedKernel
import Synchronization
import TestSupport
import Testing

@testable import PostgresStore

/// A bulk import into PostgreSQL beside the platform's searches.
@Suite(
    "PostgreSQL: a bulk import beside searches", .serialized, .buildsLargeData,
    .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresImportTests {
    @Test("a search during a 100 k import, while it rebuilds the term index, is answered before the import commits, from the old catalog")
    func searchDuringImport() async throws {
        let test = try await PostgresTestDatabase.seeded()
        let courses = GeneratedCatalog.courses(count: 100_000).map { (course: $0, lessons: [Lesson]?.none) }
        let repository = PostgresCourseRepository(database: test.database)
        let database = test.database
        let ended = Mutex(false)
        let importing = Task {
            defer { ended.withLock { $0 = true } }
            _ = try await database.importCourses(courses)
            return ContinuousClock.now
        }

        // The hold: the import's own statement, as every session sees it, is the rebuild of the
        // term index (where truncating the index in place locked searches out until the commit).
        var rebuilding = false
        while !rebuilding {
            rebuilding = try await database.read { connection in
                let rows = try await connection.query(
                    """
                    SELECT count(*) FROM pg_stat_activity
                    WHERE datname = current_database() AND state = 'active' AND query LIKE 'INSERT INTO course_term_next%'
                    """,
                    logger: database.logger)
                return try await rows.decode(Int.self).first { _ in true } == 1
            }
            if !rebuilding, ended.withLock({ $0 }) { break }
            if !rebuilding { try await Task.sleep(for: .milliseconds(10)) }
        }
        try #require(rebuilding, "the import ended before its rebuild of the term index was seen")
        let asked = ContinuousClock.now
        let page = try await repository.countedPage(CatalogQuery.parse("swift"), for: nil, at: .first, limit: 20)
        let answered = ContinuousClock.now
        let imported = try await importing.value
        let after = try await repository.countedPage(CatalogQuery.parse(""), for: nil, at: .first, limit: 1)

        #expect(answered < imported, "answered while the import ran, not after its commit")
        #expect(page.total == .exactly(page.rows.count) && !page.rows.isEmpty, "the built-in catalog's swift courses")
        #expect(page.rows.allSatisfy { !$0.course.id.rawValue.hasPrefix("gen-") }, "nothing of the import before its commit")
        #expect(after.total == .exactly(100_064))
        print(
            "a search during the import's rebuild of its term index answered in \(answered - asked); the import ended \(imported - answered) later"
        )
        await test.drop()
    }
}
