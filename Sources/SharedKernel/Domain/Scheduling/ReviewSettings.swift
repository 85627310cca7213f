import Foundation

/// What a learner chooses of their scheduling (`[review]` in the configuration): the desired
/// retention and the same-day steps. Travels with each answer, review and deck read, so every
/// store, and a server, schedules by the learner's terminal's choices.
public struct ReviewSettings: Hashable, Sendable {
    /// Retentions the app accepts (`FSRSParameters.retentionRange`).
    public static let retentions = FSRSParameters.retentionRange
    /// A step, in seconds: 1 s to a day (a longer wait is what review days are for).
    public static let stepSeconds: ClosedRange<Int> = 1...86_400
    /// Steps in a list, at most.
    public static let maximumSteps = 10

    public let retention: Double
    /// Seconds between the reviews of a new card on its first day.
    public let learningSteps: [Int]
    /// Seconds between the reviews of a forgotten card on the day it was forgotten.
    public let relearningSteps: [Int]
    /// FSRS-6 with these choices and the default weights.
    public let scheduler: FSRSScheduler

    public init(retention: Double = 0.9, learningSteps: [Int] = [60, 600], relearningSteps: [Int] = [600])
        throws(ReviewSettingsRejection)
    {
        guard Self.retentions.contains(retention) else { throw .retention(retention) }
        for (steps, kind) in [(learningSteps, ReviewSettingsRejection.Steps.learning), (relearningSteps, .relearning)] {
            guard steps.count <= Self.maximumSteps else { throw .tooManySteps(kind) }
            guard steps.allSatisfy(Self.stepSeconds.contains) else { throw .stepOutOfRange(kind) }
        }
        self.retention = retention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        do {
            scheduler = FSRSScheduler(
                parameters: try FSRSParameters(
                    desiredRetention: retention, learningSteps: learningSteps.map(TimeInterval.init),
                    relearningSteps: relearningSteps.map(TimeInterval.init)))
        } catch {
            // Checked above: FSRS takes any retention and positive steps these allow.
            throw .retention(retention)
        }
    }

    /// Retention 0.9, learning steps 1 min and 10 min, relearning 10 min (FSRS's defaults).
    public static let `default`: ReviewSettings = {
        do {
            return try ReviewSettings()
        } catch {
            preconditionFailure("The default review settings are invalid: \(error)")
        }
    }()

    /// When each grade would bring `card` back if graded at `now`, in seconds (no fuzz).
    public func intervals(for card: FSRSCard, at now: Date) -> [ReviewGrade: TimeInterval] {
        Dictionary(uniqueKeysWithValues: scheduler.nextDue(for: card, at: now).map { ($0.grade, $0.interval) })
    }
}

/// Why review settings were refused; nothing is used of them.
public enum ReviewSettingsRejection: Error, Hashable, Sendable {
    public enum Steps: String, Hashable, Sendable {
        case learning, relearning
    }

    case retention(Double)
    case tooManySteps(Steps)
    case stepOutOfRange(Steps)

    /// What the learner reads: the rule, with the reason for it.
    public var message: LocalizedText {
        switch self {
        case .retention:
            "retention is from 0.70 to 0.97: below, most cards are forgotten before they come back; above, reviews pile up for little gain"
        case .tooManySteps(.learning): "learning_steps takes at most 10 steps"
        case .tooManySteps(.relearning): "relearning_steps takes at most 10 steps"
        case .stepOutOfRange(.learning): "learning_steps are from 1s to 1d each, like \"1m 10m\""
        case .stepOutOfRange(.relearning): "relearning_steps are from 1s to 1d each, like \"10m\""
        }
    }
}

/// Steps as a query of the API writes them: seconds separated by commas, empty for none.
public enum ReviewStepsText {
    public static func text(_ steps: [Int]) -> String {
        steps.map(String.init).joined(separator: ",")
    }

    /// The steps of `text`, nil unless it is whole seconds separated by commas (their range
    /// is `ReviewSettings`'s to check).
    public static func steps(_ text: String) -> [Int]? {
        guard !text.isEmpty else { return [] }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let steps = parts.compactMap { $0.count <= 9 && $0.allSatisfy(\.isASCII) ? Int($0) : nil }
        return steps.count == parts.count ? steps : nil
    }
}
