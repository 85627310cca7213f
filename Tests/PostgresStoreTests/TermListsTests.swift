import Foundation
import PostgresNIO
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

@testable import PostgresStore

/// Terms' lists kept in the server (`TermLists`): how many ranks several lists share, the
/// bound on what is kept, and PostgreSQL's counts of common terms answered from them.
struct TermListsTests {
    /// A reproducible list: `count` ranks of 0..<`span`, ascending, none repeated.
    static func list(_ count: Int, of span: Int64, seed: UInt64) -> [Int64] {
        var state = seed
        var ranks = Set<Int64>()
        while ranks.count < count {
            // SplitMix64: the same ranks on every run.
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            ranks.insert(Int64(bitPattern: (mixed ^ (mixed >> 31)) % UInt64(span)))
        }
        return ranks.sorted()
    }

    @Test(
        "the ranks several lists share, counted up to the limit: lists alike stepped through, a far longer one galloped",
        arguments: [[40, 40], [40, 4_000], [3, 5_000, 900], [1_000, 1_000, 1_000], [0, 50], [7, 7]])
    func common(sizes: [Int]) {
        let lists = sizes.enumerated().map { Self.list($0.element, of: 10_000, seed: UInt64($0.offset + 1)) }
        let shared = lists.dropFirst().reduce(Set(lists[0])) { $0.intersection($1) }.count
        #expect(TermLists.commonCount(lists, limit: 100_000) == shared)
        #expect(TermLists.commonCount(lists.reversed(), limit: 100_000) == shared, "whichever list comes first")
        if shared > 2 { #expect(TermLists.commonCount(lists, limit: 2) == 3, "stops one past the limit") }
        #expect(TermLists.commonCount([lists[0]], limit: 100_000) == lists[0].count)
    }

    @Test(
        "a page of the shared ranks past a bound, either way: from no bound, a shared rank, a rank between, before the first, after the last",
        arguments: [[300, 40], [40, 3_000, 900], [500, 500]])
    func commonPage(sizes: [Int]) {
        // Each list holds every 97th rank besides its own, so they share some.
        let planted = Set(stride(from: Int64(5), to: 5_000, by: 97))
        let lists = sizes.enumerated().map { planted.union(Self.list($0.element, of: 5_000, seed: UInt64($0.offset + 7))).sorted() }
        let shared = lists.dropFirst().reduce(Set(lists[0])) { $0.intersection($1) }.sorted()
        let bounds: [Int64?] = [nil, shared.first, shared[shared.count / 2], shared[shared.count / 2] + 1, -1, 5_000, shared.last]
        for bound in bounds {
            for descending in [false, true] {
                for limit in [1, 3, 10_000] {
                    let past =
                        descending
                        ? shared.reversed().filter { rank in bound.map { rank < $0 } ?? true }
                        : shared.filter { rank in bound.map { rank > $0 } ?? true }
                    let expected = Array(past.prefix(limit))
                    #expect(
                        TermLists.commonRanks(lists, past: bound, descending: descending, limit: limit) == expected,
                        "past \(bound.map(String.init) ?? "nothing"), descending \(descending), limit \(limit)")
                }
            }
        }
    }

    @Test("shared ranks at the lists' ends and a list of one")
    func edges() {
        let long = Array(Int64(0)..<5_000)
        #expect(TermLists.commonCount([[0, 4_999], long], limit: 10) == 2)
        #expect(TermLists.commonCount([[5_000], long], limit: 10) == 0, "past the end")
        #expect(TermLists.commonCount([[-1], long], limit: 10) == 0, "before the start")
        #expect(TermLists.commonCount([], limit: 10) == 0)
    }

    @Test("bounded by the ranks kept: the list used least lately goes; another revision starts again, an older one is not kept")
    func bound() {
        let lists = TermLists(capacity: 10)
        lists.keep(["a": [1, 2, 3, 4], "b": [1, 2, 3, 4]], at: 5)
        #expect(lists.kept(["a"]).lists["a"] == [1, 2, 3, 4], "a used after b")
        lists.keep(["c": [5, 6, 7, 8]], at: 5)
        #expect(Set(lists.kept(["a", "b", "c"]).lists.keys) == ["a", "c"])
        #expect(lists.kept(["a"]).revision == 5, "kept with the revision they were read at")
        lists.keep(["d": Array(0..<11)], at: 5)
        #expect(lists.kept(["d"]).lists.isEmpty, "a list longer than the whole bound is not kept")
        #expect(Set(lists.kept(["a", "c"]).lists.keys) == ["a", "c"], "nor does it push the others out")
        lists.keep(["a": [9]], at: 4)
        #expect(lists.kept(["a"]) == (5, ["a": [1, 2, 3, 4]]), "an older revision's list is not kept")
        lists.keep([:], tooLong: ["f"], at: 5)
        #expect(lists.anyTooLong(["a", "f"], at: 5) && !lists.anyTooLong(["a"], at: 5), "a list past the longest is not read again")
        lists.keep(["e": [1]], at: 6)
        #expect(!lists.anyTooLong(["f"], at: 6), "until the revision moves")
        #expect(lists.kept(["a", "c", "e"]) == (6, ["e": [1]]), "a newer revision starts again")
    }
}

@Suite(
    "PostgreSQL: counts of common terms from their lists in memory",
    .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresTermListsTests {
    @Test("counted from lists read once per revision, as the rules count them, and read again after a change")
    func listedCounts() async throws {
        // 3,000 courses: `alpha` in every second title, `beta` in every third, the levels in
        // turn, every fifth free: each term past `listedFrom`.
        func course(_ index: Int, extra: String = "") -> Course {
            let words = [index % 2 == 0 ? "Alpha" : "Gamma", index % 3 == 0 ? "Beta" : "Delta", extra]
            return Course.fixture(
                id: CourseID(String(format: "listed-%04d", index)),
                title: "\(words.filter { !$0.isEmpty }.joined(separator: " ")) \(String(format: "%04d", index))",
                level: CourseLevel.allCases[index % CourseLevel.allCases.count],
                price: Price(minorUnits: index % 5 == 0 ? 0 : 1_000, currency: "EUR"))
        }
        var courses = (0..<3_000).map { course($0) }
        try #require(PostgresCourseRepository.listedFrom <= 1_000)
        let test = try await PostgresTestDatabase.migrated(
            courses: courses.map { (course: $0, lessons: nil) }, settings: [(name: "pg_stat_statements.track", value: "top")])
        do {
            try await test.database.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            let repository = PostgresCourseRepository(database: test.database)
            let texts = [
                "alpha beta", "alpha level:beginner", "beta level:beginner is:free", "alp bet", "alpha beta level:advanced",
                "alpha delta level:advanced",
                "alpha beta level:intermediate",
            ]
            func expected(_ text: String) -> CatalogCount {
                let query = CatalogQuery.parse(text)
                return .exactly(courses.filter { query.matches($0, marks: CourseMarks()) }.count)
            }
            for text in texts {
                #expect(try await repository.count(CatalogQuery.parse(text), for: nil) == expected(text), "\(text)")
            }
            let counted = try await Self.calls(of: "SELECT count(*) FROM (SELECT 1 FROM course_term AS walked", in: test)
            #expect(counted == 0, "no query was counted by PostgreSQL")
            // One read a query, of the lists not kept: alpha and beta; beginner; is:free; alp and
            // bet; advanced; delta; intermediate.
            #expect(try await Self.calls(of: "ARRAY(SELECT rank FROM course_term", in: test) == 7)

            // Pages of those queries, found in the kept lists, against another repository's,
            // which keeps none and reads every page from PostgreSQL.
            let reading = PostgresCourseRepository(database: test.database)
            for text in texts {
                for sort in ["title", "-title"] {
                    var query = CatalogQuery.parse(text)
                    query.sort = try #require(CatalogSort(apiText: sort))
                    let first = try await repository.countedPage(query, for: nil, at: .first, limit: 7)
                    #expect(first.total == expected(text), "\(text), \(sort)")
                    let firstRead = try await reading.page(query, for: nil, at: .first, limit: 7)
                    #expect(first.rows == firstRead, "\(text), \(sort): the first page")
                    // None at all (the beta courses are all beginners): positions past no key.
                    let middle = firstRead.last?.key ?? CatalogKey(1)
                    for position in [
                        CatalogPosition.after(middle), .before(middle), .last, .after(CatalogKey(.max)), .before(CatalogKey(0)),
                    ] {
                        let listed = try await repository.page(query, for: nil, at: position, limit: 7)
                        #expect(
                            listed == (try await reading.page(query, for: nil, at: position, limit: 7)), "\(text), \(sort), \(position)")
                    }
                }
            }
            // One statement a page, each query's six in both orders, even where the lists find
            // no course (the revision is read to know they are still the catalog's).
            let byRank = try await Self.calls(of: "AS listed(rank) ON ", in: test)
            #expect(byRank == texts.count * 2 * 6, "pages read by rank: \(byRank)")
            #expect(try await Self.calls(of: "ARRAY(SELECT rank FROM course_term", in: test) == 7, "no list read again")

            // A course's words change: the revision moves, the lists are read again.
            courses[1] = course(1, extra: "Alpha Beta")
            _ = try await test.database.importCourses([(course: courses[1], lessons: nil)])
            // Read before any count: the lists kept are the old revision's, so the page is read
            // from PostgreSQL (Z-A: the changed title, `Gamma …`, comes first).
            var latest = CatalogQuery.parse("alpha beta")
            latest.sort = try #require(CatalogSort(apiText: "-title"))
            let page = try await repository.page(latest, for: nil, at: .first, limit: 7)
            #expect(page.first?.course.id == courses[1].id)
            #expect(page == (try await reading.page(latest, for: nil, at: .first, limit: 7)))
            // A query the old lists find nothing for: its page and count are the new revision's.
            let found = try await repository.countedPage(
                CatalogQuery.parse("alpha beta level:intermediate"), for: nil, at: .first, limit: 7)
            #expect(found.rows.map(\.course.id) == [courses[1].id])
            #expect(found.total == .exactly(1) && expected("alpha beta level:intermediate") == .exactly(1))
            #expect(try await repository.count(CatalogQuery.parse("alpha beta"), for: nil) == expected("alpha beta"))
            #expect(expected("alpha beta") == .exactly(501), "the changed course counted")
            // Read again at the new revision, once: alpha, beta and intermediate.
            #expect(try await Self.calls(of: "ARRAY(SELECT rank FROM course_term", in: test) == 8)
            await test.drop()
        } catch {
            await test.drop()
            throw error
        }
    }

    /// How many times statements whose text holds `text` ran in the test's database.
    static func calls(of text: String, in test: PostgresTestDatabase) async throws -> Int {
        try await test.database.read { connection in
            let rows = try await connection.query(
                """
                SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements
                WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND strpos(query, \(text)) > 0
                """, logger: test.database.logger)
            for try await calls in rows.decode(Int64.self) { return Int(calls) }
            return 0
        }
    }
}
