import Foundation
import Logging
import PostgresNIO
import ServerTestSupport
import SharedKernel
import Synchronization
import TestSupport
import Testing

@testable import PostgresStore

/// What the operation contract cannot say of PostgreSQL alone: operations racing on one
/// database from many connections (as from many servers), where only row locks keep them apart.
@Suite("PostgreSQL: operations racing", .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct PostgresOperationRaceTests {
    @Test("one operation sent 12 times at once is applied once; 12 reviews of one card at once all count, each once")
    func races() async throws {
        let (test, store, operations, ref, user, answeredAt) = try await Self.answered("race-101")

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

    /// Held by the test on a connection of its own, the card's row lock stands for a review
    /// route's transaction under way: the batch must wait for it before it reads the card, or
    /// it writes the card back without that review.
    @Test("a queued review of a card a review route holds waits for it: the card is the replay of both")
    func reviewBesideRoute() async throws {
        let (test, store, operations, ref, user, answeredAt) = try await Self.answered("race-102")
        let years = StudyTime(noonOf: LearnerDay(iso: "2036-01-01")!, secondsFromGMT: 0)
        let card = { () async throws -> CardSchedule? in
            try await store.learning?.reviewDeck(userID: user, at: years, limit: 5).cards.first { $0.ref == ref }?.schedule
        }
        let initial = try #require(try await card())
        let routeTime = StudyTime(now: answeredAt.addingTimeInterval(86_400), secondsFromGMT: 0)
        let queued = SyncOperation(
            id: .random(), time: HybridTime(answeredAt.addingTimeInterval(2 * 86_400), node: "train"),
            kind: .review(ref, grade: .good, secondsFromGMT: 0))
        let logger = Logger(label: "edugo-tests-route")

        let batch = try await Self.holding(in: test) { route in
            try await Self.lock(
                """
                SELECT 1 FROM answer WHERE user_id = \(user.rawValue) AND course_id = 'race-102' AND lesson = 1 AND question = 0
                FOR UPDATE
                """, on: route)
            // The batch is in: waiting for the card (or, were it not locked first, for its write).
            let batch = try await Self.waitingForALock(in: test) { try await operations.apply(queued, userID: user) }
            let decided = try LearningRules.review(initial, grade: .hard, ref: ref, userID: user, time: routeTime)
            var write = LearningWrite()
            write.setCard(ref, decided.schedule, userID: user)
            write.rewriteLog([], with: [decided.log], userID: user)
            try await write.run(in: route, logger: logger)
            return batch
        }
        let outcome = try await batch.value
        let merged = try await card()
        await test.drop()

        #expect(outcome == .applied)
        let both = LearningRules.replay(
            [ReviewGrading(.hard, at: routeTime.now), ReviewGrading(.good, at: queued.time.date)], from: initial, ref: ref,
            userID: user)
        #expect(merged == both.schedule, "the route's review and the queued one, replayed in time order")
    }

    /// A rename through the route, while a queued batch of the learner's (held by the test on
    /// a connection of its own) has the learner's row and is about to write its items' times.
    @Test("a rename through the route waits for a queued batch that holds the learner, and then stands")
    func renameBesideBatch() async throws {
        let test = try await PostgresTestDatabase.migrated()
        let store = ContractStore.postgres(test.database)
        let user = try await store.sessions.signIn(email: "demo@edugo.dev", password: "edugo-demo").id
        _ = try await store.profiles.updateName(userID: user, to: "First Name")  // the name's time, a row now
        let logger = Logger(label: "edugo-tests-batch")
        let queuedTime = HybridTime(Date().addingTimeInterval(-60), node: "train")

        let route = try await Self.holding(in: test) { batch in
            try await Self.lock("SELECT 1 FROM learner WHERE id = \(user.rawValue) FOR NO KEY UPDATE", on: batch)
            let route = try await Self.waitingForALock(in: test) { try await store.profiles.updateName(userID: user, to: "Route Name") }
            // What a batch writes last: its items' times, the name's among them.
            try await batch.query(
                """
                INSERT INTO merge_time (user_id, item, time) VALUES (\(user.rawValue), 'name', \(queuedTime.description))
                ON CONFLICT (user_id, item) DO UPDATE SET time = excluded.time
                """, logger: logger)
            return route
        }
        let renamed = try await route.value
        let stored = try await store.profiles.user(id: user).name
        await test.drop()

        #expect(renamed.name == "Route Name")
        #expect(stored == "Route Name", "the route's rename, later than the batch's")
    }

    /// A favourite set through the route while a queued batch (held by the test) has read
    /// the item's time and is about to apply an older unset: the route waits for the batch,
    /// then stands, later than it.
    @Test("a favourite through the route waits for a queued batch that holds the learner: the later one stands")
    func favouriteBesideBatch() async throws {
        let test = try await PostgresTestDatabase.migrated(courses: [(Course.fixture(id: "race-103", title: "Race 103"), nil)])
        let store = ContractStore.postgres(test.database)
        let user = try await store.sessions.signIn(email: "demo@edugo.dev", password: "edugo-demo").id
        let logger = Logger(label: "edugo-tests-batch")
        let item = MergeRules.item(of: .favourite("race-103", isFavourite: false)) ?? ""
        let queuedTime = HybridTime(Date().addingTimeInterval(-60), node: "train")

        let route = try await Self.holding(in: test) { batch in
            try await Self.lock("SELECT 1 FROM learner WHERE id = \(user.rawValue) FOR NO KEY UPDATE", on: batch)
            // The batch read the item's time (none) before the route began: its unset wins.
            let route = try await Self.waitingForALock(in: test) {
                try await store.favourites.setFavourite(true, userID: user, courseID: "race-103")
            }
            try await batch.query(
                "DELETE FROM favourite WHERE user_id = \(user.rawValue) AND course_id = 'race-103'", logger: logger)
            try await batch.query(
                """
                INSERT INTO merge_time (user_id, item, time) VALUES (\(user.rawValue), \(item), \(queuedTime.description))
                ON CONFLICT (user_id, item) DO UPDATE SET time = excluded.time
                """, logger: logger)
            return route
        }
        try await route.value
        let favourite = try await store.favourites.favourite(userID: user, courseID: "race-103")
        await test.drop()

        #expect(favourite != nil, "the route's favourite, made after the batch's unset")
    }

    /// Another learner's queued batch holds the first course's seats (as one joining both
    /// courses, in their order, does); this learner's batch joins them in the other order. It
    /// waits for the first before it takes the second: taken as each join came, the second
    /// would be held while waiting for the first, and the other batch, wanting it next, would
    /// deadlock with it (one of the two failed after a second).
    @Test("a queued batch joining two courses takes their seats' locks in one order, before its first join")
    func seatsInOrder() async throws {
        let courses = ["race-201", "race-202"].map { (Course.fixture(id: CourseID($0), title: $0, capacity: nil), [Lesson]?.none) }
        let test = try await PostgresTestDatabase.migrated(courses: courses)
        let store = ContractStore.postgres(test.database)
        let user = try await store.sessions.signIn(email: "demo@edugo.dev", password: "edugo-demo").id
        let operations = PostgresOperationRepository(database: test.database)
        let batch = ["race-202", "race-201"].map {
            SyncOperation(id: .random(), time: HybridTime(Date().addingTimeInterval(-60), node: "train"), kind: .enroll(CourseID($0)))
        }
        let logger = Logger(label: "edugo-tests-seats")
        let (queued, secondFree) = try await Self.holding(in: test) { other in
            try await Self.lock("SELECT 1 FROM course WHERE id = 'race-201' FOR UPDATE", on: other)
            let queued = try await Self.waitingForALock(in: test) { await operations.apply(batch, userID: user) }
            do {
                // Fails at once if the waiting batch holds it (read to its end: the failure comes
                // with the rows, not with the statement's start).
                let locked = try await other.query("SELECT 1 FROM course WHERE id = 'race-202' FOR UPDATE NOWAIT", logger: logger)
                    .decode(Int.self).first { _ in true }
                return (queued, locked == 1)
            } catch {
                return (queued, false)  // the transaction is aborted: its COMMIT rolls it back
            }
        }
        let outcomes = try await queued.value
        await test.drop()

        #expect(secondFree, "the second course's seats were free while the batch waited for the first's")
        #expect(outcomes.failure == nil)
        #expect(outcomes.outcomes == [.applied, .applied])
    }

    /// A database with one course of one question, which the demo learner answered 30 days
    /// ago (a whole second, as the log keeps times).
    private static func answered(_ courseID: CourseID) async throws -> (
        PostgresTestDatabase, ContractStore, PostgresOperationRepository, QuestionRef, UserID, Date
    ) {
        let question = Question(prompt: "Which?", choices: ["A", "B"], correct: [0])
        let course = Course.fixture(id: courseID, title: "Race", capacity: nil, lessonCount: 1)
        let test = try await PostgresTestDatabase.migrated(courses: [
            (course, [Lesson(title: "One", minutes: 5, content: LessonContent(questions: [question]))])
        ])
        let store = ContractStore.postgres(test.database)
        let ref = QuestionRef(courseID: courseID, lesson: 1, question: 0)
        let answeredAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 30 * 86_400).rounded(.down))
        let user = try await store.sessions.signIn(email: "demo@edugo.dev", password: "edugo-demo").id
        _ = try await store.enrollments.enroll(userID: user, courseID: courseID)
        _ = try await store.learning?.answer([0], to: ref, userID: user, at: StudyTime(now: answeredAt, secondsFromGMT: 0))
        return (test, store, PostgresOperationRepository(database: test.database), ref, user, answeredAt)
    }

    /// Runs a locking `SELECT` to its end: PostgresNIO gives a statement's rows, and a failure
    /// in running it, after `query` returns, so only once they are read is the lock known held.
    private static func lock(_ query: PostgresQuery, on connection: PostgresConnection) async throws {
        for try await _ in try await connection.query(query, logger: Logger(label: "edugo-tests-lock")) {}
    }

    /// `body` in a transaction on a connection of the test's own, committed after it; rolled
    /// back if it throws, so no lock it took outlives the test.
    private static func holding<T: Sendable>(in test: PostgresTestDatabase, _ body: (PostgresConnection) async throws -> T)
        async throws -> T
    {
        let logger = Logger(label: "edugo-tests-held")
        return try await test.database.service.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let value = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// `work` started, once it waits for a lock held elsewhere (or has ended: one that ended
    /// without waiting failed, and its task says why).
    private static func waitingForALock<T: Sendable>(
        in test: PostgresTestDatabase, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> Task<T, any Error> {
        let ended = Atomic(false)
        let task = Task {
            defer { ended.store(true, ordering: .sequentiallyConsistent) }
            return try await work()
        }
        let logger = Logger(label: "edugo-tests-locks")
        while !ended.load(ordering: .sequentiallyConsistent),
            try await test.database.service.query(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid != pg_backend_pid()
                """, logger: logger
            ).decode(Int.self).first(where: { _ in true }) == 0
        {
            try await Task.sleep(for: .milliseconds(5))
        }
        return task
    }
}
