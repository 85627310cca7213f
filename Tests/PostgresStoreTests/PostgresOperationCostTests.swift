import Foundation
import PostgresNIO
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

@testable import PostgresStore

/// What a queued operation costs the database, counted rather than timed: each round trip
/// through PostgresNIO costs about as much as the database's work in it, so statements per
/// operation is what the batch route's rate follows (BENCHMARKS, "Queued writes"). Counted by
/// `pg_stat_statements` (preloaded by Scripts/postgres-cluster.sh, tracking nothing) turned on
/// for the test's database alone, so no other test's statements can crowd its entries out; a
/// batch's fixed statements cancel out between a batch of 5 and one of 15.
@Suite("PostgreSQL: statements per queued operation", .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresOperationCostTests {
    /// The most statements each kind may cost: none. A batch reads what its operations need in
    /// a few statements at its start (their records, courses, times and favourites; their
    /// cards; their enrollments), decides each operation in memory, and writes what they
    /// changed in a few at its end (`OperationBatch`, `BatchCards`, `BatchEnrollments`).
    /// Measured before this guard (a savepoint each, the lookups since merged): review 7,
    /// favourite 3.4, name 3, lesson mark 8; then 2, 1, 1 and 3, and an answer 5, until each
    /// was decided in memory.
    static let budget: [(kind: String, statements: Int)] = [("review", 0), ("answer", 0), ("favourite", 0), ("name", 0), ("lesson", 0)]

    @Test("each kind within its statements", arguments: budget.map(\.kind))
    func statements(kind: String) async throws {
        let questions = [
            Question(prompt: "Which?", choices: ["A", "B"], correct: [0]), Question(prompt: "Which?", choices: ["A", "B"], correct: [1]),
        ]
        let course = Course.fixture(id: "cost-101", title: "Cost 101", capacity: nil, lessonCount: 2)
        let lessons = (1...2).map { Lesson(title: "Lesson \($0)", minutes: 5, content: LessonContent(questions: questions)) }
        let test = try await PostgresTestDatabase.migrated(
            courses: [(course, lessons)], settings: [(name: "pg_stat_statements.track", value: "top")])
        do {
            let perOperation = try await Self.measure(kind, in: test)
            await test.drop()
            let allowed = Self.budget.first { $0.kind == kind }?.statements ?? 0
            #expect(perOperation <= Double(allowed), "\(kind): \(perOperation) statements an operation, at most \(allowed)")
        } catch {
            await test.drop()
            throw error
        }
    }

    @Test("a log longer than a statement holds is written in statements in turn, in its order, the rows it replaces gone")
    func longLog() async throws {
        let test = try await PostgresTestDatabase.migrated()
        do {
            let user = try await ContractStore.postgres(test.database).sessions.signIn(email: "demo@edugo.dev", password: "edugo-demo").id
            let ref = QuestionRef(courseID: "long-101", lesson: 1, question: 0)
            let start = Date(timeIntervalSince1970: 1_780_000_000)
            func entries(_ grades: [ReviewGrade], from first: Int) -> [ReviewLogEntry] {
                // Out of time order on purpose: the rows keep the order given, not the times'.
                grades.enumerated().map { index, grade in
                    ReviewLogEntry(
                        ref: ref, grade: grade, reviewedAt: start.addingTimeInterval(Double(index % 3) * 60),
                        before: CardSchedule(card: FSRSCard(due: start), reviews: first + index))
                }
            }
            func stored() async throws -> [(id: Int, grade: String, reviews: Int)] {
                try await test.database.read { connection in
                    try await Array(
                        collecting: connection.query(
                            "SELECT id, grade, reviews FROM review_log WHERE user_id = \(user.rawValue) ORDER BY id",
                            logger: test.database.logger
                        ).decode((Int, String, Int).self)
                    ).map { (id: $0.0, grade: $0.1, reviews: $0.2) }
                }
            }
            func run(_ write: LearningWrite) async throws {
                try await test.database.transaction(.saving) { connection in
                    try await write.run(in: connection, logger: test.database.logger)
                }
            }
            var first = LearningWrite()
            first.rewriteLog([], with: entries([.hard, .hard, .hard], from: 100), userID: user)
            try await run(first)
            let before = try await stored()

            // The last two rows replaced by seven, two rows a statement: four statements.
            let grades: [ReviewGrade] = [.good, .again, .easy, .hard, .good, .again, .easy]
            var write = LearningWrite(rowsPerStatement: 2)
            write.rewriteLog(before.suffix(2).map(\.id), with: entries(grades, from: 0), userID: user)
            write.reviewDay(7, userID: user)
            try await run(write)
            let after = try await stored()
            await test.drop()
            #expect(before.count == 3)
            #expect(after.first?.id == before.first?.id, "the row not replaced stays first")
            #expect(after.map(\.grade) == ["hard"] + grades.map(\.rawValue))
            #expect(after.map(\.reviews) == [100] + Array(0..<grades.count))
        } catch {
            await test.drop()
            throw error
        }
    }

    /// Statements per operation of `kind`: a batch of 15 less a batch of 5, over 10.
    private static func measure(_ kind: String, in test: PostgresTestDatabase) async throws -> Double {
        let store = ContractStore.postgres(test.database)
        let operations = PostgresOperationRepository(database: test.database)
        let user = try await store.sessions.signIn(email: "demo@edugo.dev", password: "edugo-demo").id
        _ = try await store.enrollments.enroll(userID: user, courseID: "cost-101")
        let start = Date().addingTimeInterval(-60 * 86_400)
        let refs = (1...2).flatMap { lesson in (0..<2).map { QuestionRef(courseID: "cost-101", lesson: lesson, question: $0) } }
        for ref in refs {
            _ = try await store.learning?.answer([0], to: ref, userID: user, at: StudyTime(now: start, secondsFromGMT: 0))
        }
        var made = 0
        /// The next operations of `kind`, each later than the last.
        func next(_ count: Int) -> [SyncOperation] {
            (0..<count).map { _ in
                made += 1
                let operationKind: OperationKind =
                    switch kind {
                    case "review": .review(refs[made % refs.count], grade: .good, secondsFromGMT: 0)
                    // Each earlier than the one kept, so each is applied: the card starts again.
                    case "answer": .answer(refs[made % refs.count], chosen: [made % 2], secondsFromGMT: 0)
                    case "favourite": .favourite("cost-101", isFavourite: made % 2 == 0)
                    case "name": .name(["Ana Cost", "Bo Cost", "Cai Cost"][made % 3])
                    default: .lesson("cost-101", number: made % 2 + 1, done: made % 3 != 0)
                    }
                let hours = kind == "answer" ? -Double(made) : Double(made)
                return SyncOperation(
                    id: .random(), time: HybridTime(start.addingTimeInterval(hours * 3_600), node: "cost"), kind: operationKind)
            }
        }
        let preloaded = try await test.database.read { connection in
            try await connection.query("SELECT current_setting('shared_preload_libraries')", logger: test.database.logger)
                .decode(String.self).first { _ in true } ?? ""
        }
        try #require(
            preloaded.contains("pg_stat_statements"),
            "the cluster must preload pg_stat_statements: start it with Scripts/postgres-cluster.sh")
        try await test.database.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        var counted: [Int] = []
        for size in [5, 15] {
            let batch = next(size)
            try await test.database.execute(
                "SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)")
            let result = await operations.apply(batch, userID: user)
            if let failure = result.failure { throw failure }
            #expect(result.outcomes.allSatisfy { $0 == .applied }, "\(kind): \(result.outcomes)")
            counted.append(try await statementsRun(in: test))
        }
        return Double(counted[1] - counted[0]) / 10
    }

    /// Statements run on the test's database since the reset, but for this count and the
    /// reset themselves and the pool's keep-alive (`SELECT 1`).
    private static func statementsRun(in test: PostgresTestDatabase) async throws -> Int {
        try await test.database.read { connection in
            try await connection.query(
                """
                SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements
                WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                    AND query NOT LIKE '%pg_stat_statements%' AND query !~ '^SELECT \\$1;?$'
                """, logger: test.database.logger
            ).decode(Int.self).first { _ in true } ?? 0
        }
    }
}
