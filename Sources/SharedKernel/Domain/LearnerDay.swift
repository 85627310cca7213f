import Foundation

/// A calendar day where the learner is: reviews fall due on days, and a streak counts them.
/// The learner's clock and time zone decide it (the app's, moved by `--today` in tests), so
/// a store is told the day and never guesses it from its own clock.
public struct LearnerDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let number: Int

    public init(number: Int) {
        self.number = number
    }

    /// 0001-01-01 and 9999-12-31: the days `init(iso:)` reads and `iso` writes in four digits.
    public static let earliest = LearnerDay(number: -719_162)
    public static let latest = LearnerDay(number: 2_932_896)

    /// The day `date` falls on, `secondsFromGMT` east of UTC.
    public init(_ date: Date, secondsFromGMT: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + secondsFromGMT
        number = Int((Double(seconds) / 86_400).rounded(.down))
    }

    /// `YYYY-MM-DD`, from year 1 to 9999; `nil` for anything else or a day that does not exist.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            year >= 1, (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year)
        else { return nil }
        number = Self.daysFromCivil(year: year, month: month, day: day)
    }

    /// `2026-11-24`.
    public var iso: String {
        let (year, month, day) = Self.civil(fromDays: number)
        let paddedYear = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return paddedYear + "-" + (month < 10 ? "0" : "") + String(month) + "-" + (day < 10 ? "0" : "") + String(day)
    }

    public var description: String { iso }

    /// Noon of this day in a zone `secondsFromGMT` east of UTC: a time safely inside it.
    public func noon(secondsFromGMT: Int) -> Date {
        Date(timeIntervalSince1970: Double(number * 86_400 + 43_200 - secondsFromGMT))
    }

    public func adding(days: Int) -> LearnerDay {
        LearnerDay(number: number + days)
    }

    public static func < (lhs: LearnerDay, rhs: LearnerDay) -> Bool {
        lhs.number < rhs.number
    }

    // Howard Hinnant's civil-calendar algorithms: exact for the proleptic Gregorian calendar.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
