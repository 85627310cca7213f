import Foundation
import Logging
import Platform
import PostgresNIO
import ServerTestSupport
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
                    WHERE datname = current_database() AND state = 'active' AND query LIKE 'CREATE TABLE course_term_next%'
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

/// The bulk path (a file of a good part of the catalog): rows streamed by `COPY` and written at
/// their final ranks, stored courses moving only when their place changes.
@Suite(
    "PostgreSQL: a bulk import writes every course as given, in its place",
    .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresBulkImportTests {
    /// What `COPY`'s text format and an array literal would misread if a value were not escaped.
    static let awkward = [
        "tab\there", "line\nbreak", "return\rhere", "back\\slash", "\\N", "quote \" mark", "{braces}, and commas",
        "ünïcödé 中文 😀", "trailing\\", "\"", "NULL", "",
    ]

    static func course(_ index: Int, title: String) -> Course {
        let odd = awkward[index % awkward.count]
        return .fixture(
            id: CourseID("bulk-\(index)"), title: title, instructor: "Ann \(odd)", category: index.isMultiple(of: 3) ? nil : "Cat \(odd)",
            level: CourseLevel.allCases[index % 3], durationMinutes: 30 + index,
            price: Price(minorUnits: index.isMultiple(of: 4) ? 0 : index, currency: "EUR"),
            capacity: index.isMultiple(of: 5) ? nil : 100, enrolledCount: index % 7, tags: odd.isEmpty ? [] : [odd, "tag\(index)"],
            prerequisiteID: nil, isActive: !index.isMultiple(of: 11), description: "About \(odd) \(index)")
    }

    @Test("tabs, newlines, backslashes, quotes, \\N, braces and commas in every text column come back as written, and are found")
    func awkwardText() async throws {
        let test = try await PostgresTestDatabase.seeded()
        let courses = (0..<300).map { Self.course($0, title: "Zebra \(Self.awkward[$0 % Self.awkward.count]) \($0)") }
        let summary = try await test.database.importCourses(courses.map { (course: $0, lessons: nil) })
        #expect(summary.added == 300 && summary.updated == 0)
        let repository = PostgresCourseRepository(database: test.database)
        for course in courses {
            #expect(try await repository.course(id: course.id) == course)
        }
        let found = try await repository.countedPage(CatalogQuery.parse("zebra"), for: nil, at: .first, limit: 20)
        #expect(found.total == .exactly(300))
        let slashed = try await repository.countedPage(CatalogQuery.parse("ann slash"), for: nil, at: .first, limit: 100)
        #expect(slashed.total == .exactly(courses.filter { $0.instructor.contains("slash") }.count))
        await test.drop()
    }

    @Test("20,000 courses, their rows encoded in chunks on every core: each course whole, in its place, and found")
    func encodedOnEveryCore() async throws {
        let test = try await PostgresTestDatabase.seeded()
        let count = 20_000
        // Titles against the ids' order: the file's order is neither the catalog's nor the ids'.
        let courses = (0..<count).map { index in
            let shuffled = (index * 7_919) % count
            return Self.course(shuffled, title: "Lane \(count - index) \(Self.awkward[shuffled % Self.awkward.count])")
        }
        let summary = try await test.database.importCourses(courses.map { (course: $0, lessons: nil) })
        #expect(summary.added == count && summary.updated == 0)
        let repository = PostgresCourseRepository(database: test.database)
        let lane = try await CrossStoreCatalogTests.everyRow(repository, CatalogQuery.parse("lane"), learner: UserID(1), limit: 500)
        #expect(lane.forwards == courses.sorted(by: TextFolding.inCatalogOrder).map(\.id))
        for course in stride(from: 0, to: count, by: 977).map({ courses[$0] }) + [courses[count - 1]] {
            #expect(try await repository.course(id: course.id) == course)
            // Instructors and tags are folded with each lane's memo: found by them too (its own
            // tag, `tagN`, leaves it and the few whose tag starts with it).
            guard !course.tags.isEmpty else { continue }
            let words = ([course.instructor] + course.tags).joined(separator: " ")
            let found = try await repository.countedPage(CatalogQuery.parse(words), for: nil, at: .first, limit: 20)
            #expect(found.rows.contains { $0.course.id == course.id } && found.rows.count < 20, "\(course.id) found by \(words)")
        }
        // Numbered for "newest" by their place in the file, as SQLite numbers them, and a course
        // added later comes after them.
        let database = test.database
        let added = try await database.read { connection in
            let rows = try await connection.query(
                "SELECT id FROM course WHERE id LIKE 'bulk-%' ORDER BY added_seq", logger: database.logger)
            return try await rows.collect().map { try $0.decode(String.self) }
        }
        #expect(added == courses.map(\.id.rawValue))
        _ = try await test.database.importCourses([(course: Self.course(count, title: "Lane later"), lessons: nil)])
        var byNewest = CatalogQuery.parse("lane")
        byNewest.sort = CatalogSort(.newest)
        let newest = try await repository.countedPage(byNewest, for: nil, at: .first, limit: 2)
        #expect(newest.rows.map(\.course.id) == [Self.course(count, title: "").id, courses[count - 1].id])
        await test.drop()
    }

    @Test(
        "a seed of more than 200 courses goes in by the bulk path before \"newest\" has its column (v2), and v11 numbers them in the seed's order"
    )
    func bulkSeed() async throws {
        let courses = (0..<300).map { Self.course(($0 * 7) % 300, title: "Seeded \($0)") }
        let test = try await PostgresTestDatabase.migrated(courses: courses.map { (course: $0, lessons: nil) })
        let repository = PostgresCourseRepository(database: test.database)
        var byNewest = CatalogQuery.parse("seeded")
        byNewest.sort = CatalogSort(.newest)
        let newest = try await CrossStoreCatalogTests.everyRow(repository, byNewest, learner: UserID(1), limit: 97)
        #expect(newest.forwards == courses.reversed().map(\.id))
        await test.drop()
    }

    @Test("an import tells its steps as it goes: a bulk one every step in order with whole counts, a small one its writes")
    func progressSteps() async throws {
        let test = try await PostgresTestDatabase.seeded()
        let courses = (0..<300).map { Self.course($0, title: "Step \($0)") }
        let bulk = ImportProgress()
        _ = try await test.database.importCourses(courses.map { (course: $0, lessons: nil) }, progress: bulk)
        bulk.end()
        #expect(bulk.snapshot.finished.map(\.step) == [.sending, .ordering, .writing, .lessons, .indexing, .finishing])
        #expect(bulk.snapshot.finished.map(\.count) == [300, nil, nil, 300, nil, nil])

        let small = ImportProgress()
        _ = try await test.database.importCourses([(course: Self.course(300, title: "Step 300"), lessons: nil)], progress: small)
        small.end()
        #expect(small.snapshot.finished.map(\.step) == [.writing, .finishing])
        #expect(small.snapshot.finished.map(\.count) == [1, nil])
        await test.drop()
    }

    @Test(
        "importing them again with new titles (a new order) and new courses beside: every course in its place, each found by its new title only"
    )
    func reorderedImport() async throws {
        let test = try await PostgresTestDatabase.seeded()
        let first = (0..<300).map { Self.course($0, title: "Alpha \(1000 + $0)") }
        _ = try await test.database.importCourses(first.map { (course: $0, lessons: nil) })
        // A seat held here on a course the next file says nobody has taken: the import keeps it.
        _ = try await PostgresEnrollmentRepository(database: test.database).enroll(userID: UserID(1), courseID: "bulk-7")
        // The same courses backwards, under another word, and 100 new ones among them.
        let again = (0..<400).map { Self.course($0, title: "Omega \(2000 - $0)") }
        let summary = try await test.database.importCourses(again.map { (course: $0, lessons: nil) })
        #expect(summary.added == 100 && summary.updated == 300)
        #expect(again[7].enrolledCount == 0)
        #expect(try await PostgresCourseRepository(database: test.database).course(id: "bulk-7").enrolledCount == 1)

        let repository = PostgresCourseRepository(database: test.database)
        let builtIn = try BuiltInCatalog.load().map(\.course)
        let expected = (builtIn + again).sorted(by: TextFolding.inCatalogOrder).map(\.id)
        let paged = try await CrossStoreCatalogTests.everyRow(repository, CatalogQuery.parse(""), learner: UserID(1), limit: 97)
        #expect(paged.forwards == expected)
        #expect(paged.backwards == expected)
        let omega = try await CrossStoreCatalogTests.everyRow(repository, CatalogQuery.parse("omega"), learner: UserID(1), limit: 97)
        #expect(omega.forwards == again.sorted(by: TextFolding.inCatalogOrder).map(\.id))
        #expect(try await repository.count(CatalogQuery.parse("alpha"), for: nil) == .exactly(0))
        for course in again.prefix(40) where course.id != "bulk-7" {
            #expect(try await repository.course(id: course.id) == course)
        }
        await test.drop()
    }
}
