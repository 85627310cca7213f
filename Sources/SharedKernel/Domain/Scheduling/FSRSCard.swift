import Foundation

/// Where a card is in FSRS: the raw values match py-fsrs's `State`, so stores can keep them.
public enum FSRSCardState: Int, CaseIterable, Hashable, Sendable {
    /// New, or not yet through its learning steps.
    case learning = 1
    /// Scheduled in whole days from its memory state.
    case review = 2
    /// Forgotten in review, going through the relearning steps.
    case relearning = 3
}

/// A card's FSRS memory and schedule. Instants are absolute (`Date`), not calendar days: FSRS
/// counts elapsed time from the exact moment of the last review.
public struct FSRSCard: Hashable, Sendable {
    public var state: FSRSCardState
    /// The current (re)learning step, 0-based; `nil` in review.
    public var step: Int?
    /// Days until recall probability falls to 90 %; `nil` before the first review.
    public var stability: Double?
    /// 1 (easy) … 10 (hard); `nil` before the first review.
    public var difficulty: Double?
    public var due: Date
    public var lastReview: Date?

    public init(
        state: FSRSCardState,
        step: Int?,
        stability: Double?,
        difficulty: Double?,
        due: Date,
        lastReview: Date?
    ) {
        self.state = state
        self.step = step
        self.stability = stability
        self.difficulty = difficulty
        self.due = due
        self.lastReview = lastReview
    }

    /// A card never reviewed, due at `due` (learning, step 0, as py-fsrs's `Card()`).
    public init(due: Date) {
        self.init(state: .learning, step: 0, stability: nil, difficulty: nil, due: due, lastReview: nil)
    }

    public var isNew: Bool { lastReview == nil && stability == nil }
}

/// One review as it happened: enough to show history, replay it, or undo it (restore
/// `cardBefore`).
public struct FSRSReviewLogEntry: Hashable, Sendable {
    public let grade: ReviewGrade
    public let reviewedAt: Date
    /// The card as it was just before this review.
    public let cardBefore: FSRSCard

    public init(grade: ReviewGrade, reviewedAt: Date, cardBefore: FSRSCard) {
        self.grade = grade
        self.reviewedAt = reviewedAt
        self.cardBefore = cardBefore
    }
}

/// A grade given at an instant: the input of `FSRSScheduler.replay`.
public struct FSRSReviewEvent: Hashable, Sendable {
    public let grade: ReviewGrade
    public let at: Date

    public init(grade: ReviewGrade, at: Date) {
        self.grade = grade
        self.at = at
    }
}

extension ReviewGrade {
    /// FSRS's rating: again 1, hard 2, good 3, easy 4.
    var fsrsRating: Int {
        switch self {
        case .again: 1
        case .hard: 2
        case .good: 3
        case .easy: 4
        }
    }
}
