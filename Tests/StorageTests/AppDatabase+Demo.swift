import SharedKernel
@testable import Storage

extension AppDatabase {
    /// Signs the seeded demo learner in (with the fast test hasher) and returns them.
    func signInDemo() async throws -> User? {
        try await SQLiteSessionRepository(database: self, hasher: .fast).signIn(email: "demo@edugo.dev", password: "edugo-demo")
    }
}
