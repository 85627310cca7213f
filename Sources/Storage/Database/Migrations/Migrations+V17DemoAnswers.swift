import Foundation
import GRDB
import Platform
import SharedKernel

extension Migrations {
    /// `v17-demo-answers`: the demo learner's answers (DemoAccount.answerPlan), so the review
    /// tab has cards on the first day; only for a demo account that never answered.
    static func v17DemoAnswers(_ db: Database, today: LearnerDay?) throws {
        guard let demo = try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE email = ?", arguments: [demoEmail]),
            try Int.fetchOne(db, sql: "SELECT count(*) FROM answer WHERE user_id = ?", arguments: [demo]) == 0
        else { return }
        // The learner's day where the app is (its calendar, `--today`), else the wall clock's.
        let today = today ?? LearnerDay(Date(), secondsFromGMT: TimeZone.current.secondsFromGMT())
        for plan in DemoAccount.answerPlan(today: today) {
            guard
                try String.fetchOne(
                    db, sql: "SELECT status FROM enrollment WHERE user_id = ? AND course_id = ?",
                    arguments: [demo, plan.courseID.rawValue]) != nil
            else { continue }
            for lesson in plan.lessons {
                let questions = try SQLiteLearningRepository.content(plan.courseID, lesson, in: db, ifThere: true).questions
                for (index, question) in questions.enumerated() {
                    let (chosen, card) = plan.answer(to: question, index: index, lesson: lesson)
                    let answer = Answer(
                        ref: QuestionRef(courseID: plan.courseID, lesson: lesson, question: index), chosen: chosen, to: question)
                    // The columns as v16 made them: v20 carries the SM-2 card over to FSRS.
                    try db.execute(
                        sql: """
                            INSERT INTO answer (user_id, course_id, lesson, question, chosen, is_right, answered_day,
                                repetitions, ease_millis, interval_days, due_day)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            demo, plan.courseID.rawValue, lesson, index, SQLiteLearningRepository.text(of: answer.chosen), answer.isRight,
                            plan.answeredOn.number, card.repetitions, card.easeMillis, card.intervalDays, card.due.number,
                        ])
                }
            }
        }
    }
}
