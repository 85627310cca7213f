/// What a lesson holds beyond its title: a Markdown body and the questions that follow it.
/// Read one lesson at a time, so a course page never carries every body.
public struct LessonContent: Hashable, Sendable {
    /// CommonMark text; `nil` for a lesson that has no text yet.
    public var body: String?
    public var questions: [Question]

    public init(body: String? = nil, questions: [Question] = []) {
        self.body = body
        self.questions = questions
    }

    public static let empty = LessonContent()
}

/// A multiple-choice question at the end of a lesson.
public struct Question: Hashable, Sendable {
    public var prompt: String
    public var choices: [String]
    /// The indexes (from 0) of the right choices: all of them, and no other, make a right answer.
    public var correct: Set<Int>
    /// Why the right answer is right; shown once the learner answered.
    public var explanation: String
    /// How many choices are right: what the learner is told before answering ("choose all
    /// that apply" when more than one). A question a server serves unanswered has this alone,
    /// with `correct` empty: its answer brings the rest.
    public var answerCount: Int

    public init(prompt: String, choices: [String], correct: Set<Int>, explanation: String = "", answerCount: Int? = nil) {
        self.prompt = prompt
        self.choices = choices
        self.correct = correct
        self.explanation = explanation
        self.answerCount = answerCount ?? correct.count
    }

    /// The question as a lesson shows it before it is answered: no right choices, no explanation.
    public var unanswered: Question {
        Question(prompt: prompt, choices: choices, correct: [], explanation: "", answerCount: answerCount)
    }

    /// Whether `chosen` is exactly the right choices.
    public func isRight(_ chosen: Set<Int>) -> Bool {
        chosen == correct
    }
}

/// SPEC's limits on a lesson's content: what an import accepts and a store reads back.
public enum ContentLimits {
    /// A body's size in UTF-8 bytes (256 KiB).
    public static let bodyBytes = 262_144
    public static let choices: ClosedRange<Int> = 2...6
    /// Questions at the end of one lesson.
    public static let questions: ClosedRange<Int> = 0...20
    /// Characters of a prompt, a choice or an explanation.
    public static let promptLength = 2_000
    public static let choiceLength = 500
    public static let explanationLength = 4_000

    /// Why a body cannot be kept, or `nil`: past 256 KiB, or holding NUL (no text needs it,
    /// and PostgreSQL cannot store it: every store refuses it alike).
    public static func problem(inBody body: String) -> LocalizedText? {
        if body.utf8.count > bodyBytes { return "must be at most 256 KiB (\(bodyBytes) bytes)" }
        if body.utf8.contains(0) { return "must not contain the NUL character (U+0000)" }
        return nil
    }

    /// The first problem of a question, as `(field, reason)`, or `nil` when it is sane.
    public static func problem(in question: Question) -> (field: String, reason: LocalizedText)? {
        let texts =
            [("prompt", question.prompt), ("explanation", question.explanation)]
            + question.choices.enumerated().map { ("choices[\($0.offset)]", $0.element) }
        if let (field, _) = texts.first(where: { $0.1.utf8.contains(0) }) {
            return (field, "must not contain the NUL character (U+0000)")
        }
        if !CourseLimits.saysSomething(question.prompt) { return ("prompt", "must not be empty") }
        if question.prompt.count > promptLength { return ("prompt", "must be at most \(promptLength) characters") }
        if !choices.contains(question.choices.count) { return ("choices", "must hold 2 to 6 choices") }
        if let index = question.choices.firstIndex(where: { !CourseLimits.saysSomething($0) || $0.count > choiceLength }) {
            return ("choices[\(index)]", "must be 1 to \(choiceLength) characters")
        }
        if question.correct.isEmpty { return ("correct", "must name at least one choice") }
        if let wrong = question.correct.sorted().first(where: { !question.choices.indices.contains($0) }) {
            return ("correct", "\(wrong) is not the index of a choice (0 to \(question.choices.count - 1))")
        }
        if question.explanation.count > explanationLength {
            return ("explanation", "must be at most \(explanationLength) characters")
        }
        return nil
    }
}
