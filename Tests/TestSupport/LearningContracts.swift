import Foundation
import SharedKernel

// MARK: - LearningRepository

extension ContractCase {
    /// Run by every store that serves lessons' content, answers and reviews.
    public static let learning: [ContractCase] = learningCore + learningUndoAndMemory

    static let learningCore: [ContractCase] = [
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
            let (learning, user, time) = try await LearningFixture.arrange(store, enrolled: false)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            try await checkThrows(.notEnrolled(LearningFixture.id)) { () async throws(AppError) in
                try await learning.answer([1], to: first, userID: user, at: time)
            }
            _ = try await store.enrollments.enroll(userID: user, courseID: LearningFixture.id)

            let right = try await learning.answer([1], to: first, userID: user, at: time)
            try checkEqual(
                right, Answer(ref: first, chosen: [1], isRight: true, correct: [1], explanation: "B, because."),
                "a right answer, with the right choices and why")
            let again = try await learning.answer([0], to: first, userID: user, at: time.adding(seconds: 86_400))
            try checkEqual(again, right, "answering again returns the first answer")
            let second = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 1)
            let wrong = try await learning.answer([0], to: second, userID: user, at: time)
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
                    try await learning.answer(chosen, to: ref, userID: user, at: time)
                }
            }
            try checkEqual(try await learning.answer([2], to: second, userID: user, at: time), wrong, "an answer stands")
        },
        ContractCase(
            port: "learning", name: "a course's cards: one per answer, the card its rules start, then where its grades left it"
        ) {
            store in
            let (learning, user, time) = try await LearningFixture.arrange(store)
            try checkEqual(try await learning.cards(userID: user, courseID: LearningFixture.id), [], "no answer, no card")
            let second = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 1)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            let wrong = try await learning.answer([0], to: second, userID: user, at: time)
            let right = try await learning.answer([1], to: first, userID: user, at: time)
            let started = [right, wrong].map {
                CourseCard(ref: $0.ref, schedule: LearningRules.firstCard(of: $0, userID: user, time: time))
            }
            try checkEqual(
                try await learning.cards(userID: user, courseID: LearningFixture.id), started,
                "in lesson and question order, each as the rules start it (what a replica makes of the answer)")
            let later = time.adding(seconds: 86_400 * 30)
            let graded = try await learning.review(first, grade: .good, userID: user, at: later)
            try checkEqual(
                try await learning.cards(userID: user, courseID: LearningFixture.id).first, CourseCard(ref: first, schedule: graded),
                "a grade moves the card")
            try checkEqual(try await learning.cards(userID: user, courseID: "no-such-course"), [], "another course has none")
        },
        ContractCase(
            port: "learning", name: "an answer is 1 to 6 of the question's choices, else refused as invalid, also once one is kept"
        ) {
            store in
            let (learning, user, time) = try await LearningFixture.arrange(store)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            let invalid: [Set<Int>] = [[], [3], [0, 1, 2, 3], [0, 7]]
            for chosen in invalid {
                try await checkThrows(.invalidAnswer(first)) { () async throws(AppError) in
                    try await learning.answer(chosen, to: first, userID: user, at: time)
                }
            }
            try checkEqual(try await learning.answers(userID: user, courseID: LearningFixture.id), [], "nothing was written")
            let kept = try await learning.answer([0, 1, 2], to: first, userID: user, at: time)
            try checkEqual(kept.chosen, [0, 1, 2], "every choice of the question")
            for chosen in invalid {
                try await checkThrows(.invalidAnswer(first)) { () async throws(AppError) in
                    try await learning.answer(chosen, to: first, userID: user, at: time)
                }
            }
            try checkEqual(try await learning.answers(userID: user, courseID: LearningFixture.id), [kept], "the kept answer stands")
        },
        ContractCase(port: "learning", name: "a card is never due after 9999-12-31T23:59:59Z, the last instant a store keeps") {
            store in
            let (learning, user, _) = try await LearningFixture.arrange(store)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            let lastButTwo = StudyTime(noonOf: LearnerDay(iso: "9999-12-29")!, secondsFromGMT: 0)
            let answered = try await learning.answer([1], to: first, userID: user, at: lastButTwo)
            try checkEqual(answered.isRight, true, "a right answer: in its learning steps")
            // Easy 10 minutes on would put it days on, in the year 10000.
            let reviewed = try await learning.review(first, grade: .easy, userID: user, at: lastButTwo.adding(seconds: 600))
            try checkEqual(reviewed.dueSeconds, CardSchedule.instants.upperBound, "due at the last instant")
            let last = StudyTime(noonOf: .latest, secondsFromGMT: 0)
            try checkEqual(
                try await learning.reviewDeck(userID: user, at: last, limit: 10).cards.map(\.schedule), [reviewed], "in the deck")
        },
        ContractCase(
            port: "learning",
            name:
                "answered cards go through their learning steps by FSRS the same day; a review moves them on once; the deck is ordered and counted"
        ) {
            store in
            let (learning, user, time) = try await LearningFixture.arrange(store)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            let second = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 1)
            _ = try await learning.answer([1], to: first, userID: user, at: time)
            _ = try await learning.answer([0], to: second, userID: user, at: time)
            let deck = { (seconds: Int) async throws(AppError) -> ReviewDeck in
                try await learning.reviewDeck(userID: user, at: time.adding(seconds: seconds), limit: 10)
            }

            let now = try await deck(0)
            try checkEqual(now.total, 0, "nothing due the moment it was answered")
            try checkEqual(now.comingBack, time.now.addingTimeInterval(60), "the missed one comes back in a minute (the first step)")
            let minute = try await deck(60)
            try checkEqual(minute.cards.map(\.ref), [second], "a minute on: the missed one")
            try checkEqual([minute.newCount, minute.learningCount, minute.dueCount], [1, 0, 0], "new to review")
            try checkEqual(minute.comingBack, time.now.addingTimeInterval(600), "the right one in ten minutes (the second step)")
            let tenMinutes = try await deck(600)
            try checkEqual(tenMinutes.cards.map(\.ref), [second, first], "both, earliest due first")
            try checkEqual(tenMinutes.cards.last?.question, LearningFixture.first.questions.first, "the question")
            try checkEqual(tenMinutes.cards.last?.lessonTitle, "Welcome", "the lesson's title")
            try checkEqual(try await learning.reviewDeck(userID: user, at: time.adding(seconds: 600), limit: 1).cards.count, 1, "a limit")
            try checkEqual(tenMinutes.newCount, 2, "both new to review")

            let at = time.adding(seconds: 600)
            let expected = try LearningRules.review(tenMinutes.cards.last?.schedule, grade: .good, ref: first, userID: user, time: at)
            let good = try await learning.review(first, grade: .good, userID: user, at: at)
            try checkEqual(good, expected.schedule, "good, as FSRS schedules it")
            try checkEqual([good.card.state == .review ? 1 : 0, good.reviews], [1, 1], "through its steps: in review, graded once")
            try await checkThrows(.notDue(first)) { () async throws(AppError) in
                try await learning.review(first, grade: .again, userID: user, at: at)
            }
            try checkEqual(
                try await learning.reviewDeck(userID: user, at: at.adding(seconds: 30 * 86_400), limit: 10).cards.first { $0.ref == first }?
                    .schedule, good, "a card not due (reviewed already) is refused and keeps its schedule")
            let lapse = try await learning.review(second, grade: .again, userID: user, at: at)
            try checkEqual(lapse.card.due, at.now.addingTimeInterval(60), "again: its first step again, a minute on")
            let after = try await learning.reviewDeck(userID: user, at: at, limit: 10)
            try checkEqual(after.total, 0, "nothing left now")
            try checkEqual(after.comingBack, at.now.addingTimeInterval(60), "the lapse comes back in this session")
            let later = try await learning.reviewDeck(userID: user, at: at.adding(seconds: 30 * 86_400), limit: 10)
            try checkEqual(
                [later.newCount, later.learningCount, later.dueCount], [0, 1, 1], "a month on: one in its steps, one in review")
            try await checkThrows(.noSuchLesson(LearningFixture.id, 1)) { () async throws(AppError) in
                try await learning.review(
                    QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 7), grade: .good, userID: user, at: at)
            }
        },
        ContractCase(port: "learning", name: "a card in review is due all its day where the learner is, whatever the hour") {
            store in
            let (learning, user, time) = try await LearningFixture.arrange(store)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            _ = try await learning.answer([1], to: first, userID: user, at: time)
            let graduated = try await learning.review(first, grade: .easy, userID: user, at: time.adding(seconds: 600))
            let dueDay = LearnerDay(graduated.card.due, secondsFromGMT: -36_000)
            // Ten hours west of UTC: the morning of its day, before the hour it is due at.
            let morning = StudyTime(now: StudyTime.end(of: dueDay.adding(days: -1), secondsFromGMT: -36_000), secondsFromGMT: -36_000)
            try checkEqual(try await learning.reviewDeck(userID: user, at: morning, limit: 10).dueCount, 1, "due from the start of its day")
            let before = morning.adding(seconds: -1)
            try checkEqual(try await learning.reviewDeck(userID: user, at: before, limit: 10).dueCount, 0, "not the day before")
        },
        ContractCase(port: "learning", name: "the streak counts days in a row with an answer or a review, and today may still come") {
            store in
            let (learning, user, time) = try await LearningFixture.arrange(store)
            let first = QuestionRef(courseID: LearningFixture.id, lesson: 1, question: 0)
            _ = try await learning.answer([1], to: first, userID: user, at: time)
            let day = time.day
            try checkEqual(try await learning.habit(userID: user, on: day, secondsFromGMT: 0).dueCount, 1, "due later today, in its steps")
            let reviewed = try await learning.review(first, grade: .good, userID: user, at: time.adding(seconds: 86_400))
            let habit = { (offset: Int) async throws(AppError) -> LearningHabit in
                try await learning.habit(userID: user, on: day.adding(days: offset), secondsFromGMT: 0)
            }
            try checkEqual(try await habit(1), LearningHabit(streakDays: 2, dueCount: 0, activeToday: true), "the day of the review")
            try checkEqual(
                try await habit(2), LearningHabit(streakDays: 2, dueCount: 0, activeToday: false), "the next day, not yet active")
            try checkEqual(try await habit(3).streakDays, 0, "a day missed")
            let dueDay = LearnerDay(reviewed.card.due, secondsFromGMT: 0)
            try checkEqual(try await learning.habit(userID: user, on: dueDay, secondsFromGMT: 0).dueCount, 1, "due again on its day")
        },
        ContractCase(port: "learning", name: "the learner's courses come most recently active first: joined, a lesson marked, an answer") {
            store in
            let (learning, user, time) = try await LearningFixture.arrange(store)
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
            _ = try await learning.answer([1], to: first, userID: user, at: time)
            try checkEqual(try await order(), [LearningFixture.id, "active-2"], "an answer moves its course up")
            let listed = try await store.enrollments.enrolledCourses(userID: user)
            let active = Dictionary(uniqueKeysWithValues: listed.map { ($0.id, $0.enrollment.lastActiveAt) })
            // As precise as the store keeps it (the API: seconds); the order above is the store's.
            try check(active[LearningFixture.id]! >= active["active-2"]!, "last active: \(active)")
            try checkEqual(
                try await store.enrollments.enrolledCourse(userID: user, courseID: LearningFixture.id)?.enrollment.lastActiveAt,
                active[LearningFixture.id], "one enrollment, as the list has it")

            _ = try await store.enrollments.setLesson(2, done: true, userID: user, courseID: "active-2")
            _ = try await learning.answer([0], to: first, userID: user, at: time)
            try checkEqual(try await order(), ["active-2", LearningFixture.id], "answering an answered question again is no activity")
            _ = try await learning.review(first, grade: .good, userID: user, at: time.adding(seconds: 86_400))
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
    /// signed in and (unless not) enrolled, and a time to answer at (10:00 UTC).
    static func arrange(_ store: ContractStore, enrolled: Bool = true) async throws -> (any LearningRepository, UserID, StudyTime) {
        guard let learning = store.learning else { throw ContractFailure(description: "the store has no LearningRepository") }
        let lessons = [
            Lesson(title: "Welcome", minutes: 10, content: first),
            Lesson(title: "Title only", minutes: 10),
            Lesson(title: "Reading", minutes: 10, content: LessonContent(body: "Only text, no questions.")),
        ]
        try await store.addCourses([(Contract.course(id, "Learning 101"), lessons)])
        let user = try await Contract.demo(store).id
        if enrolled { _ = try await store.enrollments.enroll(userID: user, courseID: id) }
        return (learning, user, StudyTime(noonOf: LearnerDay(iso: "2026-11-24")!, secondsFromGMT: 0).adding(seconds: -7_200))
    }
}
