import Foundation
import GRDB
import SharedKernel
import TestSupport
import Testing

@testable import Storage

@Suite("Learning rows another program damaged")
struct DamagedLearningTests {
    @Test("answers, cards and days stored as garbage are left out, or an error for that card; nothing traps")
    func damagedLearning() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let today = LearnerDay(iso: "2026-11-24")!
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, today: today)
        let demo = try await database.signInDemo().id
        let sut = SQLiteLearningRepository(database: database)
        let linux: CourseID = "linux-command-line"
        #expect(try await sut.answers(userID: demo, courseID: linux).count == 21, "the demo's answers of its 7 lessons")
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    UPDATE answer SET lesson = 'x' WHERE course_id = 'linux-command-line' AND lesson = 1 AND question = 0;
                    UPDATE answer SET chosen = 7 WHERE course_id = 'linux-command-line' AND lesson = 1 AND question = 1;
                    UPDATE answer SET stability = 'abc', due_at = 0 WHERE course_id = 'linux-command-line' AND lesson = 2;
                    INSERT INTO review_day (user_id, day) VALUES (?, 'garbage');
                    UPDATE lesson_progress SET done_at = 'not a date';
                    """, arguments: [demo.rawValue])
        }

        #expect(try await sut.answers(userID: demo, courseID: linux).count == 19)
        let now = StudyTime(noonOf: today, secondsFromGMT: 0)
        let deck = try await sut.reviewDeck(userID: demo, at: now, limit: 100)
        #expect(!deck.cards.contains { $0.ref.courseID == linux && $0.ref.lesson == 2 }, "the damaged cards are skipped")
        #expect(!deck.cards.isEmpty)
        _ = try await sut.habit(userID: demo, on: today, secondsFromGMT: 0)
        await #expect(throws: AppError.self) {
            try await sut.review(QuestionRef(courseID: linux, lesson: 2, question: 0), grade: .good, userID: demo, at: now)
        }
    }
}
