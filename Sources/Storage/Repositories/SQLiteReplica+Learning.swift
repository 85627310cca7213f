import Foundation
import GRDB
import Platform
import SharedKernel

/// The learner's answers and review cards in the replica, for reviewing while the server
/// cannot be reached: the server's word per course, and the answers it gave here since.
extension SQLiteReplica {
    /// The learner's answers and cards in `courseID` as the server listed them: the answers'
    /// right choices and explanations go into the lessons kept here, and the cards replace the
    /// replica's. While a write of theirs waits, only answers not here yet are taken, with
    /// their cards (a grade given here is newer than what the server said before it has it),
    /// and false is returned. An answer sent from the outbox leaves it once read back here.
    @discardableResult
    public func adoptLearning(_ answers: [Answer], cards: [CourseCard], courseID: CourseID, userID: UserID) async throws(AppError)
        -> Bool
    {
        try await database.write { db in
            let waits = try Self.waits(userID, in: db)
            try Self.reveal(answers, courseID: courseID, in: db)
            let schedules = Dictionary(cards.map { ($0.ref, $0.schedule) }, uniquingKeysWith: { first, _ in first })
            // A card graded here since the server was asked (a review mirrored, an answer kept)
            // is newer than its word: it stays, if it is the server's answer's card. Answers are
            // never taken back, so none is removed.
            let here = try Dictionary(
                Row.fetchAll(
                    db,
                    sql: """
                        SELECT lesson, question, chosen, coalesce(last_review_at, 0) AS last FROM answer
                        WHERE user_id = ? AND course_id = ?
                        """,
                    arguments: [userID.rawValue, courseID.rawValue]
                ).map { row in
                    (
                        QuestionRef(courseID: courseID, lesson: row["lesson"], question: row["question"]),
                        (chosen: SQLiteLearningRepository.choices(row["chosen"]), last: row["last"] as Int64)
                    )
                }, uniquingKeysWith: { first, _ in first })
            for answer in answers {
                // An answer without its card (listed between two reads) waits for the next save.
                guard let schedule = schedules[answer.ref] else { continue }
                // Another answer here lost to the server's (an earlier one, from another
                // terminal): its card goes with it, whatever waits.
                if let kept = here[answer.ref], kept.chosen == answer.chosen, waits || kept.last > (schedule.lastReviewSeconds ?? 0) {
                    continue
                }
                try Self.insert(answer, card: schedule, answeredAt: nil, userID: userID, in: db)
            }
            try Self.dropSentAnswers(courseID: courseID, userID: userID, in: db)
            return !waits
        }
    }

    /// The answers sent from the outbox whose checked answer the replica now holds.
    private static func dropSentAnswers(courseID: CourseID, userID: UserID, in db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM outbox WHERE user_id = ? AND sent = 1 AND json_extract(operation, '$.courseID') = ?
                AND EXISTS (
                    SELECT 1 FROM answer WHERE answer.user_id = outbox.user_id AND answer.course_id = json_extract(outbox.operation, '$.courseID')
                    AND answer.lesson = json_extract(outbox.operation, '$.lesson')
                    AND answer.question = json_extract(outbox.operation, '$.question'))
                """, arguments: [userID.rawValue, courseID.rawValue])
    }

    /// An answer the server just kept, with the card the same rules start from it, for
    /// reviewing here later; an answer kept already stays (the first is kept).
    public func keep(_ answer: Answer, card: CardSchedule, at time: StudyTime, userID: UserID) async throws(AppError) {
        try await database.write { db in
            try Self.reveal([answer], courseID: answer.ref.courseID, in: db)
            let kept = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM answer WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ?",
                arguments: [userID.rawValue, answer.ref.courseID.rawValue, answer.ref.lesson, answer.ref.question])
            guard kept != true else { return }
            try Self.insert(answer, card: card, answeredAt: time.now, day: time.day, userID: userID, in: db)
        }
    }

    /// Records that every enrolled course's cards were saved (`Part.cards`): the deck read
    /// here is then the learner's whole deck, as far as it goes.
    public func markCardsSaved(userID: UserID) async throws(AppError) {
        let now = now()
        try await database.write { db in try Self.mark(.cards, userID: userID, at: now, in: db) }
    }

    /// The lessons of `courseID` whose title is here and whose body and questions are not.
    public func unsavedLessons(of courseID: CourseID) async throws(AppError) -> [Int] {
        try await database.read { db in
            try Int.fetchAll(
                db,
                sql: """
                    SELECT position FROM lesson WHERE course_id = ?
                        AND position NOT IN (SELECT position FROM lesson_content WHERE course_id = ?)
                    ORDER BY position
                    """, arguments: [courseID.rawValue, courseID.rawValue])
        }
    }

    /// Bytes of lessons' bodies and questions saved here (`[offline] max_megabytes` caps them).
    public func savedLessonBytes() async throws(AppError) -> Int {
        try await database.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT coalesce(sum(length(CAST(body AS BLOB))), 0) + coalesce(sum(length(CAST(questions AS BLOB))), 0)
                    FROM lesson_content
                    """) ?? 0
        }
    }

    /// What is saved here for offline: the courses and lessons whose text or questions are
    /// kept, and their bytes.
    public func savedLessons() async throws(AppError) -> (courses: Int, lessons: Int, bytes: Int) {
        try await database.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT count(DISTINCT course_id) AS courses, count(*) AS lessons,
                            coalesce(sum(length(CAST(body AS BLOB))), 0) + coalesce(sum(length(CAST(questions AS BLOB))), 0) AS bytes
                        FROM lesson_content
                        """)
            else { return (0, 0, 0) }
            let reader = RowReader(row: row, what: "saved lessons")
            return (try reader.int("courses"), try reader.int("lessons"), try reader.int("bytes"))
        }
    }

    /// Forgets the lessons saved here but those with a question answered, or an answer queued:
    /// their questions are what a card shows when reviewed offline. Returns how many went.
    public func clearSavedLessons() async throws(AppError) -> Int {
        try await database.write { db in
            try db.execute(
                sql: """
                    DELETE FROM lesson_content WHERE NOT EXISTS (
                        SELECT 1 FROM answer WHERE answer.course_id = lesson_content.course_id AND answer.lesson = lesson_content.position)
                    AND NOT EXISTS (
                        SELECT 1 FROM outbox WHERE json_extract(operation, '$.kind') = 'answer'
                        AND json_extract(operation, '$.courseID') = lesson_content.course_id
                        AND json_extract(operation, '$.lesson') = lesson_content.position)
                    """)
            return db.changesCount
        }
    }

    /// Whether the replica has the learner's card for `ref` (a grade of it can be given here).
    public func hasCard(_ ref: QuestionRef, userID: UserID) async throws(AppError) -> Bool {
        try await database.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM answer WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ?",
                arguments: [userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question]) ?? false
        }
    }

    /// Whether the grade given to `ref` at `reviewedAt` (whole seconds) is in the replica's log
    /// (given here: it can be taken back here).
    public func hasGrade(_ ref: QuestionRef, reviewedAt: Date, userID: UserID) async throws(AppError) -> Bool {
        try await database.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT 1 FROM review_log WHERE user_id = ? AND course_id = ? AND lesson = ? AND question = ? AND reviewed_at = ?
                    """,
                arguments: [
                    userID.rawValue, ref.courseID.rawValue, ref.lesson, ref.question,
                    Int64(reviewedAt.timeIntervalSince1970.rounded(.down)),
                ]) ?? false
        }
    }

    /// What the answers reveal (right choices, explanation) written into the questions of the
    /// lessons kept here, which the server served unanswered.
    private static func reveal(_ answers: [Answer], courseID: CourseID, in db: Database) throws {
        for (lesson, revealed) in Dictionary(grouping: answers, by: \.ref.lesson) {
            guard
                let text = try String.fetchOne(
                    db, sql: "SELECT questions FROM lesson_content WHERE course_id = ? AND position = ?",
                    arguments: [courseID.rawValue, lesson]),
                var questions = QuestionsJSON.decode(text)
            else { continue }
            for answer in revealed where questions.indices.contains(answer.ref.question) && !answer.correct.isEmpty {
                questions[answer.ref.question].correct = answer.correct
                questions[answer.ref.question].explanation = answer.explanation
            }
            try db.execute(
                sql: "UPDATE lesson_content SET questions = ? WHERE course_id = ? AND position = ?",
                arguments: [QuestionsJSON.encode(questions), courseID.rawValue, lesson])
        }
    }

    /// An answer row with its card. `answeredAt` nil: a time the server did not say, which
    /// no answer made here replaces (`MergeRules.answerReplaces`: it came first).
    /// `day`: the learner's, when answered here (the streak offline counts it).
    private static func insert(
        _ answer: Answer, card: CardSchedule, answeredAt: Date?, day: LearnerDay? = nil, userID: UserID, in db: Database
    ) throws {
        let answered = answeredAt ?? card.card.lastReview ?? card.card.due
        try SQLiteLearningRepository.insert(
            answer, card: card, day: (day ?? LearnerDay(answered, secondsFromGMT: 0)).number, at: answeredAt, userID: userID.rawValue,
            in: db)
    }
}
