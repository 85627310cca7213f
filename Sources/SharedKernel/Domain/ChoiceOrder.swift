/// The order a question's choices are shown in: shuffled per card and learner's day, so a
/// learner recalls answers, not positions, and the same in every terminal of theirs that day.
/// Positions count from 0; `choices[position]` is the index in the question.
public struct ChoiceOrder: Hashable, Sendable {
    public let choices: [Int]

    public init(choices: [Int]) {
        self.choices = choices
    }

    /// The question's own order (nothing shuffled).
    public static func identity(count: Int) -> ChoiceOrder {
        ChoiceOrder(choices: Array(0..<count))
    }

    /// `count` choices of the question `ref` shuffled for `day`.
    public static func shuffled(count: Int, for ref: QuestionRef, on day: LearnerDay) -> ChoiceOrder {
        var generator = SeededRandomGenerator(
            seed: SeededRandomGenerator.seed("\(ref.courseID.rawValue)\u{1F}\(ref.lesson)\u{1F}\(ref.question)\u{1F}\(day.number)"))
        var choices = Array(0..<count)
        // Fisher–Yates with the seeded generator: `shuffle(using:)` gives no promise of the
        // same order across Swift versions.
        for index in stride(from: count - 1, to: 0, by: -1) {
            choices.swapAt(index, Int(generator.next() % UInt64(index + 1)))
        }
        return ChoiceOrder(choices: choices)
    }

    /// The question's choice shown at `position`, if there is one.
    public func choice(at position: Int) -> Int? {
        choices.indices.contains(position) ? choices[position] : nil
    }

    /// Where the question's `choice` is shown.
    public func position(of choice: Int) -> Int? {
        choices.firstIndex(of: choice)
    }
}
