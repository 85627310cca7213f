import Foundation

/// Formats a day the way screens show it: `22 Nov 2026`, the same in every locale.
public enum DateText {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public static func format(_ date: Date, timeZone: TimeZone = .current) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: timeZone, from: date)
        guard let day = parts.day, let month = parts.month, let year = parts.year else { return "" }
        return "\(day) \(months[month - 1]) \(year)"
    }
}
