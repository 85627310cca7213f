import Foundation
import Presentation
import SharedKernel
import TerminalUI

/// The learner's memory in a few rows: the cards due on each of the next 14 days as a bar
/// chart of block characters (a sentence of numbers in the accessible mode), the true
/// retention of the last 30 days, the reviews of today and the streak.
enum MemoryView {
    static let heading: LocalizedText = "Your memory"
    /// Bars use eighths of a cell: ▁ is one eighth, █ a whole cell.
    static let eighths: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// Each day: a bar three cells wide and a gap (its count, up to `999`, fits under it).
    static let dayWidth = 4

    /// Draws what fits of the picture from the top of `area`; returns the rows used.
    @discardableResult
    static func draw(
        _ memory: (picture: MemoryPicture, streakDays: Int?), in canvas: inout some Canvas, area: Rect, texts: Texts
    ) -> Int {
        var lines: [(text: String, style: Style)] = [(texts(heading), .bold)]
        let forecast = memory.picture.forecast
        var chartAt: Int?
        if canvas.isAccessible || area.width < forecast.count * dayWidth {
            for line in TextWrapper.wrap(texts(sentence(forecast)), width: max(1, area.width)) { lines.append((line, .normal)) }
        } else {
            lines.append((texts(Self.dueHeading), .dim))
            chartAt = lines.count
        }
        let rows = chartAt == nil ? 0 : chartRows(for: area.height - 5)
        // Wrapped, never cut: the last words say the most.
        for text in [retention(memory.picture), today(memory.picture.reviewsToday, streak: memory.streakDays)] {
            for line in TextWrapper.wrap(texts(text), width: max(1, area.width)) { lines.append((line, .normal)) }
        }
        var y = area.y
        for (index, line) in lines.enumerated() where y < area.maxY {
            if index == chartAt {
                y += drawChart(forecast, rows: rows, in: &canvas, x: area.x, y: y, bottom: area.maxY, texts: texts)
                guard y < area.maxY else { break }
            }
            canvas.draw(line.text, x: area.x, y: y, width: area.width, style: line.style)
            y += 1
        }
        return y - area.y
    }

    static let dueHeading: LocalizedText = "Cards due in the next 14 days"

    /// Bar rows for the room left: 4 at most, 1 at least.
    static func chartRows(for room: Int) -> Int {
        min(4, max(1, room - 2))
    }

    /// The bars (`rows` high, scaled to the busiest day), the count under each day, and where
    /// the days are; returns the rows drawn.
    private static func drawChart(
        _ forecast: [Int], rows: Int, in canvas: inout some Canvas, x: Int, y: Int, bottom: Int, texts: Texts
    ) -> Int {
        let busiest = max(1, forecast.max() ?? 0)
        var drawn = 0
        for row in 0..<rows where y + drawn < bottom {
            // Eighths of this row (counted from the bottom) each day's bar fills.
            let base = (rows - 1 - row) * 8
            var line = ""
            for count in forecast {
                let height = count == 0 ? 0 : max(1, (count * rows * 8 + busiest - 1) / busiest)
                let cell = eighths[min(8, max(0, height - base))]
                line += String(repeating: cell, count: dayWidth - 1) + " "
            }
            canvas.draw(line, x: x, y: y + drawn, style: .accent)
            drawn += 1
        }
        if y + drawn < bottom {
            let counts = forecast.map { short($0).padding(toLength: dayWidth, withPad: " ", startingAt: 0) }.joined()
            canvas.draw(counts, x: x, y: y + drawn, style: .dim)
            drawn += 1
        }
        if y + drawn < bottom {
            let first = texts("today")
            let last = texts("+\(forecast.count - 1) d")
            let end = forecast.count * dayWidth - 1
            canvas.draw(first, x: x, y: y + drawn, style: .dim)
            if first.displayWidth + 1 < end - last.displayWidth {
                canvas.draw(last, x: x + end - last.displayWidth, y: y + drawn, style: .dim)
            }
            drawn += 1
        }
        return drawn
    }

    /// A count in three cells: `7`, `420`, `12k` (thousands, 99k at most).
    static func short(_ count: Int) -> String {
        count < 1_000 ? String(count) : "\(min(99, count / 1_000))k"
    }

    /// The forecast in words, for a screen reader or a narrow terminal.
    static func sentence(_ forecast: [Int]) -> LocalizedText {
        let rest = forecast.dropFirst(2).map(String.init).joined(separator: ", ")
        return
            "Cards due: today \(forecast.first ?? 0), tomorrow \(forecast.dropFirst().first ?? 0), then \(verbatim: rest) on the 12 days after."
    }

    static func retention(_ picture: MemoryPicture) -> LocalizedText {
        guard let share = picture.retention else { return "True retention, last 30 days: — no card in review graded yet" }
        let percent = Int((share * 100).rounded())
        // The cards recalled decide the participle's number (`recordada 1 de 1`), not the percentage.
        return "True retention, last 30 days: \(percent)% (\(plural: picture.recalled) of \(picture.reviewed) recalled)"
    }

    static func today(_ reviews: Int, streak: Int?) -> LocalizedText {
        let streakText: LocalizedText =
            switch streak {
            case nil: "—"
            case 0?: "none yet"
            case 1?: "1 day"
            case let days?: "\(days) days in a row"
            }
        return "Reviews today: \(reviews) · Streak: " + streakText
    }
}
