import EduGoAPI
import SharedKernel

/// What the server sent about lessons, answers and reviews that is outside SPEC's limits:
/// never turned into a plausible value. `problem` names the field.
struct RefusedLearning: Error, Sendable, CustomStringConvertible {
    let problem: String
    var description: String { problem }
}

extension LessonContent {
    /// The server's lesson, if it passes the import's limits (a body of at most 256 KiB
    /// without NUL, at most 20 questions, each sane by `ContentLimits`).
    static func checked(_ content: Components.Schemas.LessonContent) throws(RefusedLearning) -> LessonContent {
        if let body = content.body, let problem = ContentLimits.problem(inBody: body) {
            throw RefusedLearning(problem: "a body of \(body.utf8.count) bytes that \(problem)")
        }
        guard ContentLimits.questions.contains(content.questions.count) else {
            throw RefusedLearning(problem: "\(content.questions.count) questions")
        }
        var questions: [Question] = []
        for (index, question) in content.questions.enumerated() {
            questions.append(try Question.checked(question, at: "questions[\(index)]"))
        }
        return LessonContent(body: content.body, questions: questions)
    }
}

extension Question {
    /// A question as a lesson serves it, unanswered: its right choices come with the answer.
    static func checked(_ question: Components.Schemas.LessonQuestion, at field: String) throws(RefusedLearning) -> Question {
        guard ContentLimits.choices.contains(question.choices.count), let choose = Int(exactly: question.choose),
            (1...question.choices.count).contains(choose)
        else {
            throw RefusedLearning(problem: "\(field): \(question.choices.count) choices, \(question.choose) to choose")
        }
        // Checked as a whole question would be, with stand-in right choices (the first `choose`).
        let stand = Question(prompt: question.prompt, choices: question.choices, correct: Set(0..<choose))
        if let problem = ContentLimits.problem(in: stand) {
            throw RefusedLearning(problem: "\(field).\(problem.field) \(problem.reason)")
        }
        return stand.unanswered
    }
}

extension Question {
    static func checked(_ question: Components.Schemas.Question, at field: String) throws(RefusedLearning) -> Question {
        // Counts first: a list of a million choices is refused before anything is made of it.
        guard ContentLimits.choices.contains(question.choices.count), question.correct.count <= question.choices.count else {
            throw RefusedLearning(problem: "\(field): \(question.choices.count) choices, \(question.correct.count) correct")
        }
        var correct: Set<Int> = []
        for index in question.correct {
            guard let exact = Int(exactly: index), question.choices.indices.contains(exact) else {
                throw RefusedLearning(problem: "\(field).correct: \(index) is not the index of a choice")
            }
            correct.insert(exact)
        }
        let mapped = Question(prompt: question.prompt, choices: question.choices, correct: correct, explanation: question.explanation)
        if let problem = ContentLimits.problem(in: mapped) {
            throw RefusedLearning(problem: "\(field).\(problem.field) \(problem.reason)")
        }
        return mapped
    }
}

extension QuestionRef {
    /// A card's or an answer's place, if it is one a course can have (lessons 1 to 200,
    /// questions 0 to 19, an id by SPEC's rules).
    static func checked(courseID: String, lesson: Int64, question: Int64) throws(RefusedLearning) -> QuestionRef {
        guard CourseLimits.isValidID(courseID) else { throw RefusedLearning(problem: "a course id that is not one") }
        guard let number = Int(exactly: lesson), CourseLimits.lessons.contains(number), let index = Int(exactly: question),
            (0..<ContentLimits.questions.upperBound).contains(index)
        else { throw RefusedLearning(problem: "lesson \(lesson), question \(question) of \(courseID.debugDescription)") }
        return QuestionRef(courseID: CourseID(courseID), lesson: number, question: index)
    }
}

extension Answer {
    static func checked(_ answer: Components.Schemas.Answer) throws(RefusedLearning) -> Answer {
        let ref = try QuestionRef.checked(courseID: answer.courseId, lesson: answer.lesson, question: answer.question)
        guard (1...ContentLimits.choices.upperBound).contains(answer.chosen.count) else {
            throw RefusedLearning(problem: "an answer of \(answer.chosen.count) choices")
        }
        var chosen: Set<Int> = []
        for index in answer.chosen {
            guard let exact = Int(exactly: index), (0..<ContentLimits.choices.upperBound).contains(exact) else {
                throw RefusedLearning(problem: "an answer choosing \(index)")
            }
            chosen.insert(exact)
        }
        guard answer.correct.count <= ContentLimits.choices.upperBound, answer.explanation.count <= ContentLimits.explanationLength else {
            throw RefusedLearning(problem: "an answer revealing \(answer.correct.count) right choices")
        }
        var correct: Set<Int> = []
        for index in answer.correct {
            guard let exact = Int(exactly: index), (0..<ContentLimits.choices.upperBound).contains(exact) else {
                throw RefusedLearning(problem: "an answer whose right choice is \(index)")
            }
            correct.insert(exact)
        }
        return Answer(ref: ref, chosen: chosen, isRight: answer.isRight, correct: correct, explanation: answer.explanation)
    }
}

extension CardSchedule {
    /// Repetitions up to 100,000, the easiness factor from 1.3 to 100, intervals up to the
    /// 100 years SM-2 is capped at here, a real day.
    static func checked(_ schedule: Components.Schemas.CardSchedule) throws(RefusedLearning) -> CardSchedule {
        guard let repetitions = Int(exactly: schedule.repetitions), (0...100_000).contains(repetitions),
            let ease = Int(exactly: schedule.easeMillis), (CardSchedule.minimumEaseMillis...100_000).contains(ease),
            let interval = Int(exactly: schedule.intervalDays), (0...36_500).contains(interval),
            let due = LearnerDay(iso: schedule.due)
        else { throw RefusedLearning(problem: "a schedule out of range") }
        return CardSchedule(repetitions: repetitions, easeMillis: ease, intervalDays: interval, due: due)
    }
}

extension ReviewCard {
    static func checked(_ card: Components.Schemas.ReviewCard) throws(RefusedLearning) -> ReviewCard {
        let ref = try QuestionRef.checked(courseID: card.courseId, lesson: card.lesson, question: card.question)
        guard CourseLimits.saysSomething(card.courseTitle), CourseLimits.saysSomething(card.lessonTitle) else {
            throw RefusedLearning(problem: "a card's titles say nothing once control characters are removed")
        }
        return ReviewCard(
            ref: ref, courseTitle: card.courseTitle, lessonTitle: card.lessonTitle,
            question: try Question.checked(card.content, at: "content"), schedule: try CardSchedule.checked(card.schedule))
    }
}
