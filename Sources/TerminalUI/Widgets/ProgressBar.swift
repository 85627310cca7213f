import Presentation
import SharedKernel

/// A text progress bar: `████░░░░░░  40%` (`40 %` in Spanish).
public enum ProgressBar {
    public static func text(percent: Int, width: Int, language: Language = .english) -> String {
        let clamped = min(100, max(0, percent))
        let label = language.percent(clamped)
        // Right-aligned to the widest label, `100%`, so the bars of a column end together.
        let widest = language.percent(100).count
        let paddedLabel = String(repeating: " ", count: max(0, widest - label.count)) + label
        // No room for a bar worth drawing: the number alone.
        guard width >= paddedLabel.count + 3 else { return paddedLabel }
        let barWidth = max(0, width - paddedLabel.count - 1)
        let filled = barWidth * clamped / 100
        return String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + " " + paddedLabel
    }
}
