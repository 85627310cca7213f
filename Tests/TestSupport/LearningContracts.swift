import Foundation
import SharedKernel

// MARK: - LearningRepository

extension ContractCase {
    /// Run by every store that serves lessons' content, answers and reviews.
    public static let learning: [ContractCase] = [
        ContractCase(port: "learning", name: "a lesson's body and questions, one lesson at a time; the syllabus counts the questions") {
            store in
            let (learning, _, _) = try await LearningFixture.arrange(store)
            let content = try await learning.lessonContent(courseID: LearningFixture.id, lesson: 1)
            // A server keeps the right choices for the answer (SPEC); a store of our own may give them.
            try checkEqual(content.body, LearningFixture.first.body, "lesson 1's body")
            try checkEqual(
                content.questions.map(\.unanswered), LearningFixture.first.questions.map(\.unanswered), "lesson 1's questions, as asked")
            try check(
                content.questions.allSatisfy { $0.correct.isEmpty } || content.questions == LearningFixture.first.questions,
                "the right choices, if given, are the question's")
            try checkEqual(try await learning.lessonContent(courseID: LearningFixture.id, lesson: 2), .empty, "a title-only lesson")
            try checkEqual(
                try await learning.lessonContent(courseID: LearningFixture.id, lesson: 3).body, "Only text, no questions.",
                "a body without questions")
            try await checkThrows(.noSuchLesson(LearningFixture.id, 4)) { () async throws(AppError) in
                try await learning.lessonContent(courseID: LearningFixture.id, lesson: 4)
            }
            try await checkThrows(.courseNotFound("no-such-course")) { () async throws(AppError) in
                try await learning.lessonContent(courseID: "no-such-course", lesson: 1)
            }
            let syllabus = try await store.courses.syllabus(of: LearningFixture.id)
            try checkEqual(syllabus.lessons.map(\.questionCount), [2, 0, 0], "question counts")
            try check(syllabus.lessons.allSatisfy { $0.content == nil }, "the syllabus carries no bodies")
        },
        ContractCase(
            port: "learning", name: "the first answer is kept and checked; answering needs a place; a question not there is refused"
        ) {
            store in
            let (learning, user, day) = try await LearningFixture.arrange(store, enrolled: false)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            try await checkThrows(.notEnrolled(LearningFixture.id)) { () async throws(AppError) in
                try await learning.answer([1], to: first, userID: user, on: day)
            }
            _ = try await store.enrollments.enroll(userID: user, courseID: LearningFixture.id)

            let right = try await learning.answer([1], to: first, userID: user, on: day)
            try checkEqual(
                right, Answer(ref: first, chosen: [1], isRight: true, correct: [1], explanation: "B, because."),
                "a right answer, with the right choices and why")
            let again = try await learning.answer([0], to: first, userID: user, on: day.adding(days: 1))
            try checkEqual(again, right, "answering again returns the first answer")
            let second = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 1)
            let wrong = try await learning.answer([0], to: second, userID: user, on: day)
            try checkEqual(wrong.isRight, false, "[0] of a question whose answer is [0, 2]")
            try checkEqual(wrong.correct, [0, 2], "the right choices come with the answer")
            try checkEqual(try await learning.answers(userID: user, courseID: LearningFixture.id), [right, wrong], "the answers")

            let missing: [(QuestionRef, Set<Int>)] = [
                (QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 2), [0]),
                (QuestionRef(courseID: LearningFixture.id, lesson: 2, question: 0), [0]),
                (QuestionRef(courseID: LearningFixture.id, lesson: 9, question: 0), [0]),
            ]
            for (ref, chosen) in missing {
                try await checkThrows(.noSuchLesson(LearningFixture.id, ref.lesson)) { () async throws(AppError) in
                    try await learning.answer(chosen, to: ref, userID: user, on: day)
                }
            }
            try checkEqual(try await learning.answer([2], to: second, userID: user, on: day), wrong, "an answer stands")
        },
        ContractCase(
            port: "learning", name: "an answer is 1 to 6 of the question's choices, else refused as invalid, also once one is kept"
        ) {
            store in
            let (learning, user, day) = try await LearningFixture.arrange(store)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            let invalid: [Set<Int>] = [[], [3], [0, 1, 2, 3], [0, 7]]
            for chosen in invalid {
                try await checkThrows(.invalidAnswer(first)) { () async throws(AppError) in
                    try await learning.answer(chosen, to: first, userID: user, on: day)
                }
            }
            try checkEqual(try await learning.answers(userID: user, courseID: LearningFixture.id), [], "nothing was written")
            let kept = try await learning.answer([0, 1, 2], to: first, userID: user, on: day)
            try checkEqual(kept.chosen, [0, 1, 2], "every choice of the question")
            for chosen in invalid {
                try await checkThrows(.invalidAnswer(first)) { () async throws(AppError) in
                    try await learning.answer(chosen, to: first, userID: user, on: day)
                }
            }
            try checkEqual(try await learning.answers(userID: user, courseID: LearningFixture.id), [kept], "the kept answer stands")
        },
        ContractCase(port: "learning", name: "a card is never due after 9999-12-31, the last day a learner's day can be") {
            store in
            let (learning, user, _) = try await LearningFixture.arrange(store)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            let lastButTwo = LearnerDay(iso: "9999-12-29")!
            let answered = try await learning.answer([1], to: first, userID: user, on: lastButTwo)
            try checkEqual(answered.isRight, true, "a right answer: due the next day")
            // Good on 9999-12-30 would put it 6 days on, in the year 10000.
            let reviewed = try await learning.review(first, grade: .good, userID: user, on: lastButTwo.adding(days: 1))
            try checkEqual(reviewed.due, .latest, "due on the last day")
            try checkEqual(
                try await learning.reviewDeck(userID: user, on: .latest, limit: 10).cards.map(\.schedule), [reviewed], "in the deck")
        },
        ContractCase(port: "learning", name: "answered cards fall due by SM-2; a review moves them on, once per day; the deck is ordered") {
            store in
            let (learning, user, day) = try await LearningFixture.arrange(store)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            let second = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 1)
            _ = try await learning.answer([1], to: first, userID: user, on: day)
            _ = try await learning.answer([0], to: second, userID: user, on: day)

            let today = try await learning.reviewDeck(userID: user, on: day, limit: 10)
            try checkEqual(today.dueCount, 0, "nothing due the day it was answered")
            let tomorrow = try await learning.reviewDeck(userID: user, on: day.adding(days: 1), limit: 10)
            try checkEqual(tomorrow.dueCount, 2, "both due the next day")
            try checkEqual(tomorrow.cards.map(\.ref), [first, second], "in lesson order")
            try checkEqual(tomorrow.cards.first?.question, LearningFixture.first.questions.first, "the question")
            try checkEqual(tomorrow.cards.first?.lessonTitle, "Welcome", "the lesson's title")
            try checkEqual(try await learning.reviewDeck(userID: user, on: day.adding(days: 1), limit: 1).cards.count, 1, "a limit")

            let next = day.adding(days: 1)
            let good = try await learning.review(first, grade: .good, userID: user, on: next)
            try checkEqual(good, CardSchedule(repetitions: 2, easeMillis: 2_500, intervalDays: 6, due: next.adding(days: 6)), "good")
            let twice = try await learning.review(first, grade: .again, userID: user, on: next)
            try checkEqual(twice, good, "a card reviewed already today keeps its schedule")
            let lapse = try await learning.review(second, grade: .again, userID: user, on: next)
            try checkEqual(lapse.due, next.adding(days: 1), "a lapse is due again the next day")
            try checkEqual(try await learning.reviewDeck(userID: user, on: next, limit: 10).dueCount, 0, "nothing left today")
            try await checkThrows(.noSuchLesson(LearningFixture.id, 1)) { () async throws(AppError) in
                try await learning.review(
                    QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 7), grade: .good, userID: user, on: next)
            }
        },
        ContractCase(port: "learning", name: "the streak counts days in a row with an answer or a review, and today may still come") {
            store in
            let (learning, user, day) = try await LearningFixture.arrange(store)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            _ = try await learning.answer([1], to: first, userID: user, on: day)
            _ = try await learning.review(first, grade: .good, userID: user, on: day.adding(days: 1))
            let habit = { (offset: Int) async throws(AppError) -> LearningHabit in
                try await learning.habit(userID: user, on: day.adding(days: offset), secondsFromGMT: 0)
            }
            try checkEqual(try await habit(1), LearningHabit(streakDays: 2, dueCount: 0), "the day of the review")
            try checkEqual(try await habit(2).streakDays, 2, "the next day, not yet active")
            try checkEqual(try await habit(3).streakDays, 0, "a day missed")
            try checkEqual(try await habit(7).dueCount, 1, "due again 6 days after the review")
        },
        ContractCase(port: "learning", name: "the learner's courses come most recently active first: joined, a lesson marked, an answer") {
            store in
            let (learning, user, day) = try await LearningFixture.arrange(store)
            try await store.addCourses([(Contract.course("active-2", "Second Course"), Contract.threeLessons)])
            _ = try await store.enrollments.enroll(userID: user, courseID: "active-2")
            let order = { () async throws(AppError) -> [CourseID] in
                try await store.enrollments.enrolledCourses(userID: user).map(\.id).filter {
                    [LearningFixture.id, "active-2"].contains($0)
                }
            }
            try checkEqual(try await order(), ["active-2", LearningFixture.id], "the course joined last first")
            _ = try await store.enrollments.setLesson(3, done: true, userID: user, courseID: LearningFixture.id)
            try checkEqual(try await order(), [LearningFixture.id, "active-2"], "a lesson marked moves its course up")
            _ = try await store.enrollments.setLesson(1, done: true, userID: user, courseID: "active-2")
            try checkEqual(try await order(), ["active-2", LearningFixture.id], "and the other's")

            let log = store.changes
            let start = try await log?.newestChangeID()
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            _ = try await learning.answer([1], to: first, userID: user, on: day)
            try checkEqual(try await order(), [LearningFixture.id, "active-2"], "an answer moves its course up")
            let listed = try await store.enrollments.enrolledCourses(userID: user)
            let active = Dictionary(uniqueKeysWithValues: listed.map { ($0.id, $0.enrollment.lastActiveAt) })
            // As precise as the store keeps it (the API: seconds); the order above is the store's.
            try check(active[LearningFixture.id]! >= active["active-2"]!, "last active: \(active)")
            try checkEqual(
                try await store.enrollments.enrolledCourse(userID: user, courseID: LearningFixture.id)?.enrollment.lastActiveAt,
                active[LearningFixture.id], "one enrollment, as the list has it")

            _ = try await store.enrollments.setLesson(2, done: true, userID: user, courseID: "active-2")
            _ = try await learning.answer([0], to: first, userID: user, on: day)
            try checkEqual(try await order(), ["active-2", LearningFixture.id], "answering an answered question again is no activity")
            _ = try await learning.review(first, grade: .good, userID: user, on: day.adding(days: 1))
            if let log, let start {
                try checkEqual(
                    try await Contract.events(log, after: start, for: user).map(\.change),
                    [
                        .learning(user, LearningFixture.id), .enrollment(user, "active-2"), .learning(user, nil),
                    ], "an answer and a review are noted; an answer kept is not")
            }
        },
    ]
}

enum LearningFixture {
    static let id: CourseID = "learn-101"
    static let first = LessonContent(
        body: "## Hello\n\nSome *text* and `code`.",
        questions: [
            Question(prompt: "Which one?", choices: ["A", "B", "C"], correct: [1], explanation: "B, because."),
            Question(prompt: "Choose all that apply", choices: ["X", "Y", "Z"], correct: [0, 2], explanation: "X and Z."),
        ])

    /// A course of three lessons (with questions, title only, text only), the demo learner
    /// signed in and (unless not) enrolled, and a day to answer on.
    static func arrange(_ store: ContractStore, enrolled: Bool = true) async throws -> (any LearningRepository, UserID, LearnerDay) {
        guard let learning = store.learning else { throw ContractFailure(description: "the store has no LearningRepository") }
        let lessons = [
            Lesson(title: "Welcome", minutes: 10, content: first),
            Lesson(title: "Title only", minutes: 10),
            Lesson(title: "Reading", minutes: 10, content: LessonContent(body: "Only text, no questions.")),
        ]
        try await store.addCourses([(Contract.course(id, "Learning 101"), lessons)])
        let user = try await Contract.demo(store).id
        if enrolled { _ = try await store.enrollments.enroll(userID: user, courseID: id) }
        return (learning, user, LearnerDay(iso: "2026-11-24")!)
    }
}
