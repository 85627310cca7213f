import Foundation

/// Formats a course length the way the catalog shows it: `2h 30min`, `45min`, `3h` (in
/// Spanish, as its style wants, `2 h 30 min`).
public enum DurationText {
    /// A negative length is no length: `0min`, never `-1h -40min`.
    public static func format(minutes: Int) -> LocalizedText {
        let minutes = max(0, minutes)
        let hours = minutes / 60
        let rest = minutes % 60
        switch (hours, rest) {
        case (0, _): return "\(rest)min"
        case (_, 0): return "\(hours)h"
        default: return "\(hours)h \(rest)min"
        }
    }

    /// The same for a narrow column: `2h10`, `5h`, `45m`.
    public static func compact(minutes: Int) -> String {
        let minutes = max(0, minutes)
        let (hours, rest) = (minutes / 60, minutes % 60)
        switch (hours, rest) {
        case (0, _): return "\(rest)m"
        case (_, 0): return "\(hours)h"
        default: return "\(hours)h\(rest < 10 ? "0" : "")\(rest)"
        }
    }
}

/// When a card comes back, as its grade key says it: `10m`, `5h`, `4d`, `2y` (in Spanish
/// `10 min`, `5 h`, `4 d`, `2 a`).
public enum IntervalText {
    public static func format(seconds: TimeInterval) -> LocalizedText {
        let minutes = max(1, Int((seconds / 60).rounded()))
        if minutes < 60 { return "\(minutes)m" }
        let hours = Int((seconds / 3_600).rounded())
        if hours < 24 { return "\(hours)h" }
        let days = Int((seconds / 86_400).rounded())
        if days < 365 { return "\(days)d" }
        return "\(max(1, Int((Double(days) / 365).rounded())))y"
    }
}
