import Foundation
import SharedKernel
import Storage
import TestSupport
import Testing

@testable import AppShell

/// The simulation's cards: four questions of lesson 1, answered before the week, graded and
/// undone through each terminal's `ReplicaLearning`, online or off.
extension ReplicaSyncSimulationTests {
    static let question = Question(prompt: "Which?", choices: ["A", "B", "C"], correct: [1], explanation: "B.")
    static let lessons = [
        Lesson(title: "Lesson 1", minutes: 10, content: LessonContent(body: "Cards.", questions: Array(repeating: question, count: 4))),
        Lesson(title: "Lesson 2", minutes: 10, content: LessonContent(body: "Quiz.", questions: Array(repeating: question, count: 3))),
        Lesson(title: "Lesson 3", minutes: 10),
    ]
    static let questions = (0..<4).map { QuestionRef(courseID: course, lesson: 1, question: $0) }
    /// Lesson 2's questions, answered during the week, online or offline, by any terminal.
    static let quizzes = (0..<3).map { QuestionRef(courseID: course, lesson: 2, question: $0) }

    /// Each quiz answered on the server has one answer, one a terminal gave, and none waits
    /// in a queue or shows unchecked once everything was sent.
    static func checkAnswers(_ terminals: [SimTerminal], server: InMemoryStore, learner: UserID) async throws {
        let answers = try await server.answers(userID: learner, courseID: course)
        for ref in quizzes {
            let given = terminals.reduce(into: Set<Set<Int>>()) { $0.formUnion($1.given[ref] ?? []) }
            let kept = answers.filter { $0.ref == ref }
            try check(kept.count <= 1, "quiz \(ref): \(kept.count) answers on the server")
            if let answer = kept.first { try check(given.contains(answer.chosen), "quiz \(ref): \(answer.chosen) was never given") }
        }
        for terminal in terminals {
            let waiting = try await SQLiteOutbox(database: terminal.database).pendingAnswers(userID: learner, courseID: course)
            try check(waiting.isEmpty, "terminal \(terminal.index): answers still unchecked \(waiting.map(\.ref))")
        }
    }

    /// Every grade that stood in a terminal reached the server once: a card's count of grades
    /// there is the sum of the terminals' (none lost, none doubled by a repeat).
    static func checkGradesCountedOnce(_ terminals: [SimTerminal], server: InMemoryStore, learner: UserID) async throws {
        let cards = try await server.cards(userID: learner, courseID: course)
        for ref in questions {
            let given = terminals.reduce(0) { $0 + ($1.grades[ref] ?? 0) }
            let counted = cards.first { $0.ref == ref }?.schedule.reviews
            try check(counted == given, "card \(ref): \(given) grades given, the server counts \(String(describing: counted))")
        }
    }
}

extension SimTerminal {
    /// A due card graded (the replica's deck while offline or writes wait), read back, and one
    /// time in four undone at once. A card graded elsewhere meanwhile, or not saved here while
    /// offline, is not graded.
    func review(using random: inout SeededRandomGenerator, learner: UserID) async throws {
        let time = StudyTime(now: clock(), secondsFromGMT: 0)
        let learning = learning
        guard
            case .success(let deck) = await Self.outcome({ () async throws(AppError) in
                try await learning.reviewDeck(userID: learner, at: time, limit: 10)
            }), let card = deck.cards.randomElement(using: &random)
        else { return }
        let grade = [ReviewGrade.again, .hard, .good, .easy].randomElement(using: &random) ?? .good
        switch await Self.outcome({ () async throws(AppError) in
            try await learning.review(card.ref, grade: grade, userID: learner, at: time)
        }) {
        case .success: grades[card.ref, default: 0] += 1
        case .failure(.notDue): return
        case .failure(let error) where error.isUnreachable: return
        case .failure(let error): throw error
        }
        let waits = try await SQLiteOutbox(database: database).count(userID: learner) > 0
        let again = try await learning.reviewDeck(userID: learner, at: time, limit: 10)
        try check(!waits || !again.cards.contains { $0.ref == card.ref }, "terminal \(index): \(card.ref) graded, still due")
        guard Int.random(in: 0..<4, using: &random) == 0 else { return }
        switch await Self.outcome({ () async throws(AppError) in
            try await learning.undoReview(card.ref, reviewedAt: time.now, userID: learner)
        }) {
        case .success: grades[card.ref, default: 0] -= 1
        case .failure(.nothingToUndo): return
        case .failure(let error) where error.isUnreachable: return
        case .failure(let error): throw error
        }
    }
}

extension SimTerminal {
    /// A quiz answered (queued unchecked while offline or writes wait), and read back at once:
    /// answered, checked or not. A place given up meanwhile answers nothing.
    func answer(using random: inout SeededRandomGenerator, learner: UserID) async throws {
        guard let ref = ReplicaSyncSimulationTests.quizzes.randomElement(using: &random) else { return }
        let chosen: Set<Int> = [Int.random(in: 0..<3, using: &random)]
        let time = StudyTime(now: clock(), secondsFromGMT: 0)
        let learning = learning
        switch await Self.outcome({ () async throws(AppError) in try await learning.answer(chosen, to: ref, userID: learner, at: time) }) {
        case .success: given[ref, default: []].insert(chosen)
        case .failure(.notEnrolled): return
        case .failure(let error) where error.isUnreachable: return
        case .failure(let error): throw error
        }
        guard
            case .success(let shown) = await Self.outcome({ () async throws(AppError) in
                try await learning.answers(userID: learner, courseID: ref.courseID)
            })
        else { return }
        try check(shown.contains { $0.ref == ref }, "terminal \(index): \(ref) answered, not read back")
    }
}

extension SimulatedLink: LearningRepository {
    func lessonContent(courseID: CourseID, lesson: Int) async throws(AppError) -> LessonContent {
        try line()
        // As a server serves it: the right choices come with the learner's answer.
        let content = try await server.lessonContent(courseID: courseID, lesson: lesson)
        return LessonContent(body: content.body, questions: content.questions.map(\.unanswered))
    }

    func answers(userID: UserID, courseID: CourseID) async throws(AppError) -> [Answer] {
        try line()
        return try await server.answers(userID: userID, courseID: courseID)
    }

    func cards(userID: UserID, courseID: CourseID) async throws(AppError) -> [CourseCard] {
        try line()
        return try await server.cards(userID: userID, courseID: courseID)
    }

    func answer(_ chosen: Set<Int>, to question: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> Answer
    {
        try line()
        return try await server.answer(chosen, to: question, userID: userID, at: time, settings: settings)
    }

    func reviewDeck(userID: UserID, at time: StudyTime, limit: Int, settings: ReviewSettings) async throws(AppError) -> ReviewDeck {
        try line()
        return try await server.reviewDeck(userID: userID, at: time, limit: limit, settings: settings)
    }

    func review(_ question: QuestionRef, grade: ReviewGrade, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> CardSchedule
    {
        try line()
        return try await server.review(question, grade: grade, userID: userID, at: time, settings: settings)
    }

    func undoReview(_ question: QuestionRef, reviewedAt: Date, userID: UserID) async throws(AppError) -> CardSchedule {
        try line()
        return try await server.undoReview(question, reviewedAt: reviewedAt, userID: userID)
    }

    func memory(userID: UserID, at time: StudyTime) async throws(AppError) -> MemoryPicture {
        try line()
        return try await server.memory(userID: userID, at: time)
    }

    func habit(userID: UserID, on day: LearnerDay, secondsFromGMT: Int) async throws(AppError) -> LearningHabit {
        try line()
        return try await server.habit(userID: userID, on: day, secondsFromGMT: secondsFromGMT)
    }
}
