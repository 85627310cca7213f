import Foundation

/// What the learner's memory looks like at a time: the cards that fall due on each of the
/// next days, how much was recalled of late, and the reviews of today.
public struct MemoryPicture: Hashable, Sendable {
    /// Days the forecast covers, today first.
    public static let forecastDays = 14
    /// Days the true retention looks back over.
    public static let retentionDays = 30

    /// Cards due on each day from today (`forecastDays` of them); today's count holds the
    /// cards overdue and those in their steps today.
    public var forecast: [Int]
    /// Reviews of cards in review (not in their steps) in the last `retentionDays` days, and
    /// how many of them were recalled (any grade but again): Anki's "true retention".
    public var recalled: Int
    public var reviewed: Int
    /// Grades given on the learner's day.
    public var reviewsToday: Int

    public init(forecast: [Int], recalled: Int, reviewed: Int, reviewsToday: Int) {
        self.forecast = forecast
        self.recalled = recalled
        self.reviewed = reviewed
        self.reviewsToday = reviewsToday
    }

    /// The share recalled, once something was reviewed.
    public var retention: Double? { reviewed > 0 ? Double(recalled) / Double(reviewed) : nil }

    /// The rule every store follows, over the learner's cards and review log.
    public init(schedules: some Sequence<CardSchedule>, log: some Sequence<ReviewLogEntry>, at time: StudyTime) {
        var forecast = Array(repeating: 0, count: Self.forecastDays)
        let ends = Self.dayEnds(at: time)
        for schedule in schedules {
            // The first day whose end is after the card's due instant.
            if let day = ends.firstIndex(where: { schedule.card.due < $0 }) { forecast[day] += 1 }
        }
        let since = Self.retentionSince(at: time)
        let todayStart = Self.dayStart(at: time)
        var recalled = 0
        var reviewed = 0
        var today = 0
        for entry in log where entry.reviewedAt <= time.now {
            if entry.reviewedAt >= todayStart { today += 1 }
            guard entry.reviewedAt >= since, entry.before.card.state == .review else { continue }
            reviewed += 1
            if entry.grade != .again { recalled += 1 }
        }
        self.init(forecast: forecast, recalled: recalled, reviewed: reviewed, reviewsToday: today)
    }

    /// The end of each day of the forecast, today first.
    public static func dayEnds(at time: StudyTime) -> [Date] {
        (0..<forecastDays).map { StudyTime.end(of: time.day.adding(days: $0), secondsFromGMT: time.secondsFromGMT) }
    }

    /// The first instant of the learner's day.
    public static func dayStart(at time: StudyTime) -> Date {
        StudyTime.end(of: time.day.adding(days: -1), secondsFromGMT: time.secondsFromGMT)
    }

    /// The first instant the true retention counts: `retentionDays` days before `time`.
    public static func retentionSince(at time: StudyTime) -> Date {
        time.now.addingTimeInterval(-Double(retentionDays * 86_400))
    }
}
