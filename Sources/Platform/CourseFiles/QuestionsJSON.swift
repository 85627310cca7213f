import Foundation
import SharedKernel

/// A lesson's questions as the stores keep them: one JSON text per lesson, in the course
/// file's own shape, so a stored lesson reads back through the same checks as an import.
public enum QuestionsJSON {
    private struct Stored: Codable {
        var prompt: String
        var choices: [String]
        var correct: [Int]
        var explanation: String
        /// How many choices are right, for a question kept unanswered (a remote-mode replica's
        /// copy of what a server served: the right choices come with the learner's answer).
        /// Left out otherwise, so a course's stored text is as it always was.
        var answerCount: Int?
    }

    /// `nil` for no questions, so a lesson without them stores nothing.
    public static func encode(_ questions: [Question]) -> String? {
        guard !questions.isEmpty else { return nil }
        let stored = questions.map {
            Stored(
                prompt: $0.prompt, choices: $0.choices, correct: $0.correct.sorted(), explanation: $0.explanation,
                answerCount: $0.correct.isEmpty ? $0.answerCount : nil)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(stored) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The questions of a stored text; `nil` when it is damaged or out of SPEC's limits (the
    /// store then reports it, never trusts it).
    public static func decode(_ text: String?) -> [Question]? {
        guard let text else { return [] }
        guard let stored = try? JSONDecoder().decode([Stored].self, from: Data(text.utf8)),
            ContentLimits.questions.contains(stored.count)
        else { return nil }
        let questions = stored.map {
            Question(
                prompt: $0.prompt, choices: $0.choices, correct: Set($0.correct), explanation: $0.explanation,
                answerCount: $0.correct.isEmpty ? ($0.answerCount ?? 0) : nil)
        }
        // An unanswered question is checked as one whose first `answerCount` choices are right.
        let checked = questions.map { question in
            guard question.correct.isEmpty else { return question }
            var stand = question
            stand.correct = Set(0..<max(0, min(question.answerCount, ContentLimits.choices.upperBound + 1)))
            return stand
        }
        guard checked.allSatisfy({ ContentLimits.problem(in: $0) == nil }) else { return nil }
        return questions
    }
}
