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
        ])
    func agreesWithBruteForce(query: String) async throws {
        let (sut, directory) = try makeSUT()
        defer { directory.remove() }
        let all = try await sut.everyCourse()

        let found = try await sut.find(query)

        #expect(found.map(\.id) == BruteForceSearch.matches(all, query: query).map(\.id))
    }

    private func makeSUT() throws -> (SQLiteCourseRepository, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { Self.seed })
        return (SQLiteCourseRepository(database: database), directory)
    }
}
