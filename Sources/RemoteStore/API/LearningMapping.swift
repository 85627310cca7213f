import EduGoAPI
import Foundation
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
    /// The server's schedule, if it is one FSRS can work with (`CardSchedule.checked`): a state
    /// it knows, a step only while (re)learning, stability and difficulty both there and in
    /// range or both not, instants of years 1–9999 in whole seconds, reviews 0 to 10⁶.
    static func checked(_ schedule: Components.Schemas.CardSchedule) throws(RefusedLearning) -> CardSchedule {
        // Clamped, a step or a count past any `Int` is still out of the check's range.
        guard let due = WireInstant.seconds(schedule.due),
            let checked = CardSchedule.checked(
                state: FSRSCardState(schedule.state).rawValue, step: schedule.step.map { Int(clamping: $0) },
                stability: schedule.stability, difficulty: schedule.difficulty, dueSeconds: due,
                lastReviewSeconds: try schedule.lastReview.map(WireInstant.checkedSeconds), reviews: Int(clamping: schedule.reviews))
        else { throw RefusedLearning(problem: "a schedule out of range") }
        return checked
    }
}

extension FSRSCardState {
    init(_ state: Components.Schemas.CardSchedule.StatePayload) {
        switch state {
        case .learning: self = .learning
        case .review: self = .review
        case .relearning: self = .relearning
        }
    }
}

extension ReviewDeck {
    /// The server's deck at `time` without its cards (the caller checks them one by one): each
    /// count from 0 to `largest`, no more cards than `wanted` nor than counted, and a card that
    /// comes back doing so later on the learner's day.
    static func checkedCounts(_ deck: Components.Schemas.ReviewDeck, at time: StudyTime, wanted: Int, largest: Int) throws(RefusedLearning)
        -> ReviewDeck
    {
        func count(_ value: Int64, of part: String) throws(RefusedLearning) -> Int {
            guard let exact = Int(exactly: value), (0...largest).contains(exact) else {
                throw RefusedLearning(problem: "\(value) \(part)")
            }
            return exact
        }
        let new = try count(deck.newCount, of: "new")
        let learning = try count(deck.learningCount, of: "learning")
        let due = try count(deck.dueCount, of: "due")
        guard deck.cards.count <= wanted, deck.cards.count <= new + learning + due else {
            throw RefusedLearning(problem: "more cards than \(new) new, \(learning) learning and \(due) due")
        }
        var comingBack: Date?
        if let sent = deck.comingBack {
            guard WireInstant.seconds(sent) != nil, time.now < sent, sent < time.dayEnd else {
                throw RefusedLearning(problem: "a card coming back at \(sent), not later on the learner's day")
            }
            comingBack = sent
        }
        return ReviewDeck(cards: [], newCount: new, learningCount: learning, dueCount: due, comingBack: comingBack)
    }
}

/// Instants as the API sends them: whole seconds since 1970, of years 1–9999.
enum WireInstant {
    /// `date` in whole seconds if it is one of `CardSchedule.instants`, else nil (a fraction,
    /// or an instant past the years the API writes).
    static func seconds(_ date: Date) -> Int64? {
        guard let seconds = Int64(exactly: date.timeIntervalSince1970), CardSchedule.instants.contains(seconds) else { return nil }
        return seconds
    }

    static func checkedSeconds(_ date: Date) throws(RefusedLearning) -> Int64 {
        guard let seconds = seconds(date) else { throw RefusedLearning(problem: "an instant out of range") }
        return seconds
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
            question: try Question.checked(card.content, at: "content"), schedule: try CardSchedule.checked(card.schedule),
            intervals: try card.intervals.map(intervals) ?? [:])
    }

    /// Seconds from 0 to FSRS's longest interval (100 years) and a day. A server older than
    /// intervals sends none: the app works them out from the learner's settings.
    static let intervalSeconds: ClosedRange<Int64> = 0...Int64(FSRSParameters.default.maximumIntervalDays + 1) * 86_400

    private static func intervals(_ sent: Components.Schemas.GradeIntervals) throws(RefusedLearning) -> [ReviewGrade: TimeInterval] {
        let pairs: [(ReviewGrade, Int64)] = [(.again, sent.again), (.hard, sent.hard), (.good, sent.good), (.easy, sent.easy)]
        guard pairs.allSatisfy({ intervalSeconds.contains($0.1) }) else {
            throw RefusedLearning(problem: "a grade's interval out of range")
        }
        return Dictionary(uniqueKeysWithValues: pairs.map { ($0.0, TimeInterval($0.1)) })
    }
}

extension MemoryPicture {
    /// The server's picture, if it is one: 14 days of 0 to `largest` cards, no more recalled
    /// than reviewed.
    static func checked(_ sent: Components.Schemas.MemoryPicture, largest: Int) throws(RefusedLearning) -> MemoryPicture {
        let counts = sent.forecast + [sent.recalled, sent.reviewed, sent.reviewsToday]
        guard sent.forecast.count == MemoryPicture.forecastDays, counts.allSatisfy({ (0...Int64(largest)).contains($0) }),
            sent.recalled <= sent.reviewed
        else { throw RefusedLearning(problem: "a memory picture out of range") }
        return MemoryPicture(
            forecast: sent.forecast.map { Int($0) }, recalled: Int(sent.recalled), reviewed: Int(sent.reviewed),
            reviewsToday: Int(sent.reviewsToday))
    }
}
