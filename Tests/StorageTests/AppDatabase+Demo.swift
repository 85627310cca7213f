import SharedKernel
@testable import Storage

extension AppDatabase {
    /// Signs the seeded demo learner in (with the fast test hasher) and returns them.
    func signInDemo() async throws -> User? {
        try await SQLiteSessionRepository(database: self, hasher: .fast).signIn(email: "demo@edugo.dev", password: "edugo-demo")
    }
}

extension SQLiteCourseRepository {
    /// The whole catalog in order, through the paging API (fine for test-sized catalogs).
    func everyCourse() async throws -> [Course] {
        try await page(matching: "", at: .first, limit: 1_000_000).map(\.course)
    }

    /// Every course a search finds, in order.
    func find(_ query: String) async throws -> [Course] {
        try await page(matching: query, at: .first, limit: 1_000_000).map(\.course)
    }
}
