import Foundation

/// When the learner studies: the instant, in whole seconds (so every store keeps it exactly),
/// and where their clock stands (seconds east of UTC), which puts it on their day. The app's
/// clock gives it, moved by `--today` in tests; a store is told it and never guesses it.
public struct StudyTime: Hashable, Sendable {
    public let now: Date
    public let secondsFromGMT: Int

    public init(now: Date, secondsFromGMT: Int) {
        self.now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        self.secondsFromGMT = secondsFromGMT
    }

    /// Noon of `day` where the learner is: a time on that day, away from its edges.
    public init(noonOf day: LearnerDay, secondsFromGMT: Int) {
        self.init(now: Date(timeIntervalSince1970: Double(day.number * 86_400 + 43_200 - secondsFromGMT)), secondsFromGMT: secondsFromGMT)
    }

    public var day: LearnerDay { LearnerDay(now, secondsFromGMT: secondsFromGMT) }

    /// When the learner's day ends: a card in review due before it is due today.
    public var dayEnd: Date { Self.end(of: day, secondsFromGMT: secondsFromGMT) }

    /// The instant `day` ends, `secondsFromGMT` east of UTC.
    public static func end(of day: LearnerDay, secondsFromGMT: Int) -> Date {
        Date(timeIntervalSince1970: Double((day.number + 1) * 86_400 - secondsFromGMT))
    }

    public func adding(seconds: Int) -> StudyTime {
        StudyTime(now: now.addingTimeInterval(Double(seconds)), secondsFromGMT: secondsFromGMT)
    }
}
