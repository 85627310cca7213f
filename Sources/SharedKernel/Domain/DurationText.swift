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
}
