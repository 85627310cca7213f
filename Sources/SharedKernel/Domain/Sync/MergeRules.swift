import Foundation

/// How writes made apart (offline, in several terminals) come together, the same in every
/// store and replica, whatever order they arrive in.
public enum MergeRules {
    /// Latest time wins, per item (a favourite, a lesson mark, the name): whether a write made
    /// at `incoming` replaces what the write at `stored` left. A store keeps each item's time.
    /// An equal time is one node's (the node is part of it), and only a clock far ahead
    /// clamped to the store's now makes two of its writes equal: the one arriving later was
    /// made later (a terminal sends its queue in order), so it wins.
    public static func replaces(_ incoming: HybridTime, stored: HybridTime?) -> Bool {
        stored.map { incoming >= $0 } ?? true
    }

    /// The earliest answer is kept: whether an answer given at `incoming` takes the place of
    /// one given at `stored` (an answer whose time was never kept stays: it came first).
    public static func answerReplaces(_ incoming: Date, stored: Date?) -> Bool {
        stored.map { Int64(incoming.timeIntervalSince1970.rounded(.down)) < Int64($0.timeIntervalSince1970.rounded(.down)) }
            ?? false
    }

    /// The item a latest-wins operation writes, as a store keys its time; `nil` for the others.
    public static func item(of kind: OperationKind) -> String? {
        switch kind {
        case .favourite(let id, _): "favourite\u{1F}\(id.rawValue)"
        case .lesson(let id, let number, _): "lesson\u{1F}\(id.rawValue)\u{1F}\(number)"
        case .name: "name"
        case .enroll, .unenroll, .answer, .review, .undoReview: nil
        }
    }
}

/// One grade of a card's log to replay: what, and when.
public struct ReviewGrading: Hashable, Sendable {
    public var grade: ReviewGrade
    public var reviewedAt: Date

    public init(_ grade: ReviewGrade, at reviewedAt: Date) {
        self.grade = grade
        self.reviewedAt = Date(timeIntervalSince1970: reviewedAt.timeIntervalSince1970.rounded(.down))
    }
}

extension LearningRules {
    /// A card's state is the replay of its log in time order: from `start` (the card before
    /// the first of `gradings`), each grade at its time by FSRS, with the same fuzz every
    /// store draws. Returns each grade's log entry (with the card before it) and the card after
    /// the last. No grade is refused for being early: each was given to a card its terminal
    /// had due, and two terminals' reviews of one card both count.
    public static func replay(
        _ gradings: [ReviewGrading], from start: CardSchedule, ref: QuestionRef, userID: UserID, settings: ReviewSettings = .default
    ) -> (entries: [ReviewLogEntry], schedule: CardSchedule) {
        var schedule = start
        var entries: [ReviewLogEntry] = []
        entries.reserveCapacity(gradings.count)
        for grading in gradings {
            let time = StudyTime(now: grading.reviewedAt, secondsFromGMT: 0)
            var fuzz = fuzz(ref, userID: userID, at: time)
            let card = settings.scheduler.review(schedule.card, grade: grading.grade, at: time.now, using: &fuzz).card
            entries.append(ReviewLogEntry(ref: ref, grade: grading.grade, reviewedAt: time.now, before: schedule))
            schedule = CardSchedule(card: keptInRange(card), reviews: schedule.reviews + 1)
        }
        return (entries, schedule)
    }

    /// Whether `grading` is in the card's log already: the same grade in the same second is
    /// one grade (the review route's, whose answer was lost, sent again as an operation).
    public static func isRepeat(_ grading: ReviewGrading, in log: [ReviewLogEntry]) -> Bool {
        log.contains { $0.reviewedAt == grading.reviewedAt && $0.grade == grading.grade }
    }

    /// A grade given at `grading.reviewedAt` merged into a card's log: `later` are the card's
    /// entries after that time (in time order), `current` the card now. The grade goes in its
    /// place and the entries after it are replayed on top; the result replaces `later`.
    /// `.notDue` for a grade from before the card was answered (or from before the grade it
    /// would follow, within its second): there was no such card to grade then.
    public static func insert(
        _ grading: ReviewGrading, later: [ReviewLogEntry], current: CardSchedule, ref: QuestionRef, userID: UserID,
        settings: ReviewSettings = .default
    ) throws(AppError) -> (entries: [ReviewLogEntry], schedule: CardSchedule) {
        let start = later.first?.before ?? current
        if let last = start.card.lastReview, grading.reviewedAt < Date(timeIntervalSince1970: last.timeIntervalSince1970.rounded(.down)) {
            throw .notDue(ref)
        }
        return replay(
            [grading] + later.map { ReviewGrading($0.grade, at: $0.reviewedAt) }, from: start, ref: ref, userID: userID, settings: settings)
    }

    /// The grade `taken` (an entry of the card's log) taken back: the card as it was before it,
    /// with the entries after it (`later`, in time order) replayed on top.
    public static func remove(
        _ taken: ReviewLogEntry, later: [ReviewLogEntry], ref: QuestionRef, userID: UserID, settings: ReviewSettings = .default
    ) -> (entries: [ReviewLogEntry], schedule: CardSchedule) {
        replay(later.map { ReviewGrading($0.grade, at: $0.reviewedAt) }, from: taken.before, ref: ref, userID: userID, settings: settings)
    }
}
