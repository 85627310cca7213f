import Presentation

/// A text progress bar: `████░░░░░░  40%`.
public enum ProgressBar {
    public static func text(percent: Int, width: Int) -> String {
        let clamped = min(100, max(0, percent))
        let label = "\(clamped)%"
        let paddedLabel = String(repeating: " ", count: max(0, 4 - label.count)) + label
        // No room for a bar worth drawing: the number alone.
        guard width >= paddedLabel.count + 3 else { return paddedLabel }
        let barWidth = max(0, width - paddedLabel.count - 1)
        let filled = barWidth * clamped / 100
        return String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + " " + paddedLabel
    }
}
