import Foundation
import PostgresStore
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

/// What the operation contract cannot say of PostgreSQL alone: operations racing on one
/// database from many connections (as from many servers), where only row locks keep them apart.
@Suite("PostgreSQL: operations racing", .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresOperationRaceTests {
    @Test("one operation sent 12 times at once is applied once; 12 reviews of one card at once all count, each once")
    func races() async throws {
        let question = Question(prompt: "Which?", choices: ["A", "B"], correct: [0])
        let course = Course.fixture(id: "race-101", title: "Race 101", capacity: nil, lessonCount: 1)
        let test = try await PostgresTestDatabase.migrated(courses: [
            (course, [Lesson(title: "One", minutes: 5, content: LessonContent(questions: [question]))])
        ])
        let store = ContractStore.postgres(test.database)
        let operations = PostgresOperationRepository(database: test.database)
        let ref = QuestionRef(courseID: "race-101", lesson: 1, question: 0)
        let answeredAt = Date().addingTimeInterval(-30 * 86_400)
        let user = try await store.sessions.signIn(email: "demo@edugo.dev", password: "edugo-demo").id
        _ = try await store.enrollments.enroll(userID: user, courseID: "race-101")
        _ = try await store.learning?.answer([0], to: ref, userID: user, at: StudyTime(now: answeredAt, secondsFromGMT: 0))

        let once = SyncOperation(
            id: .random(), time: HybridTime(answeredAt.addingTimeInterval(86_400), node: "racer"),
            kind: .review(ref, grade: .good, secondsFromGMT: 0))
        let repeated = try await withThrowingTaskGroup(of: OperationOutcome.self) { group in
            for _ in 0..<12 { group.addTask { try await operations.apply(once, userID: user) } }
            return try await group.reduce(into: [OperationOutcome]()) { $0.append($1) }
        }
        let afterOne = try await store.learning?.reviewDeck(
            userID: user, at: StudyTime(now: Date().addingTimeInterval(400 * 86_400), secondsFromGMT: 0), limit: 5)
        let distinct = (1...12).map { day in
            SyncOperation(
                id: .random(), time: HybridTime(answeredAt.addingTimeInterval(Double(day + 1) * 86_400), node: "racer-\(day)"),
                kind: .review(ref, grade: .hard, secondsFromGMT: 0))
        }
        let each = try await withThrowingTaskGroup(of: OperationOutcome.self) { group in
            for operation in distinct { group.addTask { try await operations.apply(operation, userID: user) } }
            return try await group.reduce(into: [OperationOutcome]()) { $0.append($1) }
        }
        let afterAll = try await store.learning?.reviewDeck(
            userID: user, at: StudyTime(now: Date().addingTimeInterval(4_000 * 86_400), secondsFromGMT: 0), limit: 5)
        await test.drop()

        #expect(repeated == Array(repeating: .applied, count: 12), "every repeat answers the first outcome")
        #expect(afterOne?.cards.first?.schedule.reviews == 1, "applied once")
        #expect(each == Array(repeating: .applied, count: 12))
        #expect(afterAll?.cards.first?.schedule.reviews == 13, "no review lost to a race")
    }
}
