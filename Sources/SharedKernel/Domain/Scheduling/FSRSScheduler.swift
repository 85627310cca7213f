import Foundation

/// FSRS-6 scheduling, step for step as py-fsrs 6.3.2's `Scheduler.review_card`. A value type
/// without state: the same card, grade, instant and random numbers give the same result.
public struct FSRSScheduler: Hashable, Sendable {
    public let parameters: FSRSParameters
    let model: FSRSModel

    public init(parameters: FSRSParameters = .default) {
        self.parameters = parameters
        model = FSRSModel(weights: parameters.weights)
    }

    /// Reviews `card` with `grade` at `now`. `random` supplies the fuzz (one number per review
    /// that ends in the review state, when fuzz is on); pass a `SeededRandomGenerator` for a
    /// reproducible schedule.
    public func review(
        _ card: FSRSCard,
        grade: ReviewGrade,
        at now: Date,
        using random: inout some RandomNumberGenerator
    ) -> (card: FSRSCard, log: FSRSReviewLogEntry) {
        var (next, days) = unfuzzed(card, grade: grade, at: now)
        if let whole = days, parameters.enableFuzzing, next.state == .review {
            days = fuzzedInterval(days: whole, unit: Self.unitInterval(&random))
        }
        if let days { next.due = now.addingTimeInterval(Double(days) * FSRSTime.secondsPerDay) }
        return (next, FSRSReviewLogEntry(grade: grade, reviewedAt: now, cardBefore: card))
    }

    /// The probability of recalling `card` at `now`; 0 for a card never reviewed. Elapsed time
    /// counts in whole days, as in the reference, so it stays 1 until a full day has passed.
    public func retrievability(of card: FSRSCard, at now: Date) -> Double {
        guard let last = card.lastReview, let stability = card.stability else { return 0 }
        return model.retrievability(elapsedDays: FSRSTime.elapsedDays(from: last, to: now), stability: stability)
    }

    /// Where each grade would send `card` if answered at `now`, in grade order (again … easy):
    /// for the key labels. Shown without fuzz, which moves a review by at most a few days.
    public func nextDue(for card: FSRSCard, at now: Date) -> [FSRSDuePreview] {
        ReviewGrade.allCases.map { grade in
            let (next, days) = unfuzzed(card, grade: grade, at: now)
            let due = days.map { now.addingTimeInterval(Double($0) * FSRSTime.secondsPerDay) } ?? next.due
            return FSRSDuePreview(grade: grade, due: due, interval: due.timeIntervalSince(now))
        }
    }

    /// Replays `history` on `card` (usually `FSRSCard(due:)`, a new card), oldest first: the
    /// events are sorted by time, ties kept in order, as py-fsrs's `reschedule_card` does.
    public func replay(
        _ history: [FSRSReviewEvent],
        from card: FSRSCard,
        using random: inout some RandomNumberGenerator
    ) -> (card: FSRSCard, log: [FSRSReviewLogEntry]) {
        let ordered =
            zip(history, history.dropFirst()).allSatisfy { $0.at <= $1.at }
            ? history
            : history.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        var current = card
        var log: [FSRSReviewLogEntry] = []
        log.reserveCapacity(ordered.count)
        for event in ordered {
            let (next, entry) = review(current, grade: event.grade, at: event.at, using: &random)
            current = next
            log.append(entry)
        }
        return (current, log)
    }

    // MARK: - The reference's review_card, without fuzz

    /// The reviewed card, and the interval in whole days when it is scheduled in days (then
    /// `due` is left for the caller to set, after fuzz).
    func unfuzzed(_ card: FSRSCard, grade: ReviewGrade, at now: Date) -> (FSRSCard, Int?) {
        let rating = grade.fsrsRating
        var next = card
        next.lastReview = now
        updateMemory(&next, from: card, rating: rating, at: now)
        let stability = next.stability ?? FSRSModel.minimumStability
        let inDays = {
            model.interval(
                stability: stability, retention: parameters.desiredRetention,
                maximum: parameters.maximumIntervalDays)
        }

        switch card.state {
        case .review:
            guard rating == 1, let first = parameters.relearningSteps.first else {
                // Any pass, or a lapse with no relearning steps: stays in review.
                return (next, inDays())
            }
            next.state = .relearning
            next.step = 0
            next.due = now.addingTimeInterval(first)
            return (next, nil)
        case .learning, .relearning:
            let steps = card.state == .learning ? parameters.learningSteps : parameters.relearningSteps
            let step = max(card.step ?? 0, 0)  // a stored negative step must not trap
            // A card past the last step (the steps were shortened since), or no steps at all,
            // graduates on anything but "again" (and on "again" too when there are no steps).
            let graduates = steps.isEmpty || (step >= steps.count && rating > 1)
            // The delay to the next step, or nil when the card graduates to review.
            let delay: TimeInterval?
            switch rating {
            case _ where graduates, 4:
                delay = nil
            case 1:
                next.step = 0
                delay = steps[0]
            case 2:
                // "hard" repeats the step; on the first one it waits between steps 1 and 2.
                if step == 0 {
                    delay = steps.count == 1 ? steps[0] * 1.5 : (steps[0] + steps[1]) / 2.0
                } else {
                    delay = steps[step]
                }
            default:
                if step + 1 == steps.count {
                    delay = nil
                } else {
                    next.step = step + 1
                    delay = steps[step + 1]
                }
            }
            if let delay {
                next.due = now.addingTimeInterval(delay)
                return (next, nil)
            }
            next.state = .review
            next.step = nil
            return (next, inDays())
        }
    }

    /// New stability and difficulty. The first review sets them from the grade alone; one
    /// within a whole day of the last uses the short-term formula; later ones the long-term
    /// formulas at the current recall probability.
    private func updateMemory(_ next: inout FSRSCard, from card: FSRSCard, rating: Int, at now: Date) {
        guard let stability = card.stability, let difficulty = card.difficulty else {
            next.stability = model.initialStability(rating)
            next.difficulty = model.initialDifficulty(rating)
            return
        }
        if let last = card.lastReview, FSRSTime.elapsedDays(from: last, to: now) < 1 {
            next.stability = model.shortTermStability(stability, rating: rating)
        } else {
            next.stability = model.nextStability(
                difficulty: difficulty, stability: stability,
                retrievability: retrievability(of: card, at: now), rating: rating)
        }
        next.difficulty = model.nextDifficulty(difficulty, rating: rating)
    }

    /// A uniform number in [0, 1) from the top 53 bits: fixed here rather than left to the
    /// standard library, so a seed gives the same fuzz on every toolchain.
    static func unitInterval(_ random: inout some RandomNumberGenerator) -> Double {
        Double(random.next() >> 11) * 0x1p-53
    }
}

/// Where one grade would send a card: for labels such as "again 10m  good 4d".
public struct FSRSDuePreview: Hashable, Sendable {
    public let grade: ReviewGrade
    public let due: Date
    /// Seconds from the review to `due`.
    public let interval: TimeInterval

    /// "10m", "5h", "4d", "1.5y": minutes under an hour, hours under a day, days under a year.
    public var label: String {
        let minutes = interval / 60
        if minutes < 59.5 { return "\(max(1, Int(minutes.rounded())))m" }
        let hours = minutes / 60
        if hours < 23.5 { return "\(Int(hours.rounded()))h" }
        let days = hours / 24
        if days < 365 { return "\(Int(days.rounded()))d" }
        let years = (days / 365 * 10).rounded() / 10
        return years == years.rounded() ? "\(Int(years))y" : "\(years)y"
    }
}
