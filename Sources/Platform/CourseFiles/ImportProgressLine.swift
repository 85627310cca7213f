import SharedKernel

/// The lines an import's progress is drawn with: one per step that ended, and the running
/// step's, which is drawn again in place and so must fit the terminal's width:
///
///     ✓ Reading the file · 200000 courses · 4.0 s
///     ⠹ Writing courses ━━━━━━━━━━━╸─────────────── 81920 of 200000 · 74210/s · 2 s left
///
/// A step with no count shows how long it has run. What does not fit goes, least needed
/// first: the bar, the rate, the counts; then the line is cut.
public enum ImportProgressLine {
    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// `accessible`: words and commas, for a screen reader, instead of `✓` and `·`
    /// (`Writing courses: done, 1000000 courses, 15.0 s`).
    public static func finished(_ step: ImportProgress.Finished, texts: Texts, accessible: Bool = false) -> String {
        var parts = [accessible ? texts("\(step.step.title): done") : texts(step.step.title)]
        if let count = step.count { parts.append(texts("\(count) courses")) }
        parts.append(texts(elapsed(step.duration, texts: texts)))
        return accessible ? parts.joined(separator: ", ") : "✓ " + parts.joined(separator: " · ")
    }

    /// The running step at `now`, at most `width` columns; `frame` turns the spinner.
    public static func running(_ snapshot: ImportProgress.Snapshot, now: ContinuousClock.Instant, frame: Int, width: Int, texts: Texts)
        -> String?
    {
        guard let step = snapshot.step else { return nil }
        let head = "\(spinner[frame % spinner.count]) \(texts(step.title))"
        let ran = now - snapshot.stepStarted
        guard let done = snapshot.done else { return fit(head + " · " + texts(elapsed(ran, texts: texts)), width: width) }
        let counts = texts(snapshot.total.map { "\(done) of \($0)" } ?? "\(done) courses")
        // A rate from the first half second says little: none is shown before.
        let seconds = ran / .seconds(1)
        var pace: [String] = []
        if seconds >= 0.5, done > 0 {
            let rate = Double(done) / seconds
            pace.append(texts("\(Int(rate.rounded()))/s"))
            if let total = snapshot.total, total > done {
                pace.append(texts("\(remaining(Double(total - done) / rate)) left"))
            }
        }
        let tail = ([counts] + pace).joined(separator: " · ")
        if let total = snapshot.total, total > 0 {
            // The bar takes what the words leave, between 10 and 30 columns.
            let room = width - columns(head) - columns(tail) - 2
            if room >= 10 {
                return head + " " + bar(Double(min(done, total)) / Double(total), width: min(room, 30)) + " " + tail
            }
        }
        for words in [tail, counts] where columns(head) + 1 + columns(words) <= width {
            return head + " " + words
        }
        return fit(head, width: width)
    }

    /// `━━━━╸────`: done in heavy strokes, a half stroke where it reaches.
    static func bar(_ fraction: Double, width: Int) -> String {
        let halves = Int((fraction * Double(width * 2)).rounded(.down))
        let full = halves / 2
        let half = full < width && halves % 2 == 1 ? 1 : 0
        return String(repeating: "━", count: full) + (half == 1 ? "╸" : "") + String(repeating: "─", count: width - full - half)
    }

    /// How long a step took: `3.2 s`, `1 min 4 s`.
    static func elapsed(_ duration: Duration, texts: Texts) -> LocalizedText {
        let tenths = Int(duration / .milliseconds(100))
        if tenths < 600 {
            let seconds = "\(tenths / 10)\(texts.language.decimalSeparator)\(tenths % 10)"
            return "\(seconds) s"
        }
        return minutes(tenths / 10)
    }

    /// How long is left, in whole seconds rounded up: `12 s`, `2 min 5 s`, `3 h 20 min`.
    static func remaining(_ seconds: Double) -> LocalizedText {
        let whole = Int(min(seconds, 1e7).rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3_600 { return minutes(whole) }
        let hours: LocalizedText = "\(whole / 3_600) h"
        let rest: LocalizedText = "\(whole % 3_600 / 60) min"
        return "\(hours) \(rest)"
    }

    private static func minutes(_ seconds: Int) -> LocalizedText {
        let minutes: LocalizedText = "\(seconds / 60) min"
        let rest: LocalizedText = "\(seconds % 60) s"
        return "\(minutes) \(rest)"
    }

    /// Every character here takes one column: the texts are the app's own and the spinner's and
    /// bar's signs are narrow.
    static func columns(_ text: String) -> Int { text.count }

    private static func fit(_ text: String, width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(width - 1, 0))) + "…"
    }
}
