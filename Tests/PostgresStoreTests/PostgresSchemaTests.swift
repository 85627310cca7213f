import Foundation
import Logging
import Platform
import PostgresNIO
import SharedKernel
import TestSupport
import Testing

@testable import PostgresStore

@Suite("PostgreSQL: the schema's physical choices", .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresSchemaTests {
    @Test("a course's row keeps its page through enrollments (its seat count moves; no index learns of it)")
    func enrollmentsStayOnThePage() async throws {
        let test = try await PostgresTestDatabase.seeded()
        let database = test.database
        let course: CourseID = "swift-cli"
        let page = { () async throws -> String in
            try await database.read { connection in
                let rows = try await connection.query(
                    "SELECT (ctid::text::point)[0]::text FROM course WHERE id = \(course.rawValue)", logger: database.logger)
                return try await rows.decode(String.self).first { _ in true } ?? "?"
            }
        }
        let before = try await page()
        let learner = try await AccountService(store: PostgresAccountStore(database: database), hasher: TestPasswordHasher.cheap)
            .authenticate(email: DemoAccount.email, password: DemoAccount.password)
        let enrollments = PostgresEnrollmentRepository(database: database)
        try? await enrollments.unenroll(userID: learner.id, courseID: course)
        for _ in 0..<20 {
            _ = try await enrollments.enroll(userID: learner.id, courseID: course)
            try await enrollments.unenroll(userID: learner.id, courseID: course)
        }
        #expect(try await page() == before)
        await test.drop()
    }
}
