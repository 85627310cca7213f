import Foundation
import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

@Suite("Catalog search in SQLite")
struct CourseSearchTests {
    static let seed = (try? BuiltInCatalog.load()) ?? []

    @Test(
        "queries find what they must and not what they must not",
        arguments: [
            ("nunez", ["Español conversacional", "Guitar: First Steps", "Street Photography"], ["Swift Fundamentals"]),
            ("NÚÑEZ", ["Español conversacional"], []),
            ("resume", ["Résumé Writing for Developers"], ["Swift Fundamentals"]),
            ("Résumé", ["Résumé Writing for Developers"], []),
            ("k8s", ["Kubernetes for Developers"], ["Docker Essentials"]),
            ("swift async", ["Swift Concurrency in Practice"], ["Swift Fundamentals"]),
            ("maria garcia", ["Swift Concurrency in Practice", "Swift Fundamentals"], ["Writing Swift Macros"]),
            ("中文", ["Mandarin Tones and Pinyin"], []),
            ("日本語", ["日本語入門: Japanese for Beginners", "Japanese II: Everyday Conversations"], []),
            ("100%", [], ["Swift Fundamentals"]),
            ("_", [], ["Swift Fundamentals"]),
        ])
    func table(query: String, mustFind: [String], mustNotFind: [String]) async throws {
        let (sut, directory) = try makeSUT()
        defer { directory.remove() }

        let titles = try await sut.find(query).map(\.title)

        for title in mustFind { #expect(titles.contains(title), "\(query) should find \(title)") }
        for title in mustNotFind { #expect(!titles.contains(title), "\(query) should not find \(title)") }
    }

    @Test("a blank query matches every course")
    func blank() async throws {
        let (sut, directory) = try makeSUT()
        defer { directory.remove() }

        #expect(try await sut.find("   ").count == Self.seed.count)
        #expect(try await sut.find("").count == Self.seed.count)
    }

    @Test(
        "results equal a brute-force filter, in catalog order",
        arguments: [
            "swift", "design", "JAVASCRIPT", "zoe", "photo", "beginner", "e", "data science", "ilker", "o b",
            // Past the index's longest prefix (six), asked by the terms they begin (`PrefixTerms`).
            "fundamentals", "photograph", "kubernetes devel", "concurrency practice", "developers", "conversacional", "zzzzzzzz",
        ])
    func agreesWithBruteForce(query: String) async throws {
        let (sut, directory) = try makeSUT()
        defer { directory.remove() }
        let all = try await sut.everyCourse()

        let found = try await sut.find(query)

        #expect(found.map(\.id) == BruteForceSearch.matches(all, query: query).map(\.id))
    }

    @Test("a word past the longest prefix, asked once, still finds a course added after it (the terms are kept per revision)")
    func longWordAfterImport() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.seed })
        let sut = SQLiteCourseRepository(database: database)
        #expect(try await sut.find("fundamentals").count >= 1)
        #expect(try await sut.find("fundamentalist").isEmpty)
        #expect(try await sut.find("cat:photography").count >= 1)

        let added = Course(
            id: "fundamentalist-course", title: "Fundamentalists of Photography", instructor: "Ana Ruiz", category: "Photography & Music",
            level: .beginner, durationMinutes: 60, price: Price(minorUnits: 0, currency: "USD"),
            description: "A course added after the searches.")
        _ = try database.importCourses([added])

        #expect(try await sut.find("fundamentalist").map(\.id) == ["fundamentalist-course"])
        let all = try await sut.everyCourse()
        for query in ["fundamentals", "fundament", "cat:photography", "cat:devops"] {
            #expect(try await sut.find(query).map(\.id) == BruteForceSearch.matches(all, query: query).map(\.id), "\(query)")
        }
    }

    @Test("the index is asked for a long word's terms, OR'ed; a short word or one beginning many terms as a prefix")
    func askedByTerms() throws {
        let query = CatalogQuery.parse("fundamentals swift cat:programming")
        #expect(FullTextQuery.prefixes(of: query) == ["fundamentals", "swift", "_catprogramming"])
        let plan = FullTextQuery(query, terms: ["fundamentals": ["fundamentals", "fundamentalsx"], "_catprogramming": []])
        #expect(
            plan.match
                == #"search_key : ("fundamentals" OR "fundamentalsx") AND search_key : "swift"* AND search_facets : ("_catprogramming")"#)
        #expect(PrefixTerms.expands("fundamentals") && PrefixTerms.expands("_catdata"))
        #expect(!PrefixTerms.expands("swift") && !PrefixTerms.expands("conversación"), "short, or folded by FTS5's own rules")
    }

    private func makeSUT() throws -> (SQLiteCourseRepository, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.seed })
        return (SQLiteCourseRepository(database: database), directory)
    }
}
