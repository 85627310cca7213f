import Presentation
import SharedKernel
import TerminalUI

/// The selected course beside the list on a wide terminal (like lazygit's or gh-dash's
/// panes): its facts, the learner's marks and the start of its description, read from the
/// row the list already has. `Enter` still opens the whole page.
enum CoursePreview {
    /// The widest the list runs when the preview shows: titles and minutes stay near.
    static let listMeasure = 100
    /// The narrowest preview worth drawing.
    static let minimumWidth = 36

    /// Where the list and the preview go in `area` when it is at least `from` columns wide
    /// (`nil`: off); `nil` when there is no room for both.
    static func split(_ area: Rect, from columns: Int?) -> (list: Rect, preview: Rect)? {
        guard let columns, area.width >= columns else { return nil }
        let listWidth = min(listMeasure, area.width - minimumWidth)
        guard listWidth > 0 else { return nil }
        // The preview starts with its rule, right after the list.
        return (
            Rect(x: area.x, y: area.y, width: listWidth, height: area.height),
            Rect(x: area.x + listWidth, y: area.y, width: area.width - listWidth, height: area.height)
        )
    }

    static func draw(_ course: Course, marks: CourseMarks, in canvas: inout some Canvas, area: Rect, texts: Texts) {
        guard area.width >= 4, area.height > 0 else { return }
        // A rule between the panes.
        for row in area.y..<area.maxY { canvas.draw("│", x: area.x, y: row, style: .dim) }
        let content = Rect(x: area.x + 2, y: area.y, width: area.width - 3, height: area.height)
        var y = content.y
        var title = WrappedText(TerminalText.sanitize(course.title), width: content.width)
        title.wrap(upTo: 3)
        for line in title.lines.prefix(3) where y < content.maxY {
            canvas.draw(line, x: content.x, y: y, width: content.width, style: .bold)
            y += 1
        }
        if y < content.maxY {
            canvas.draw(texts("by \(course.instructor)"), x: content.x, y: y, width: content.width, style: .dim)
            y += 2
        }
        // The page's facts, with the lessons after the duration (the page lists them below).
        var facts = CourseDetailScreen.facts(of: course)
        facts.insert(("Lessons", "\(course.lessonCount)"), at: 3)
        if !course.tags.isEmpty { facts.append(("Tags", .verbatim(course.tags.joined(separator: ", ")))) }
        var status: [LocalizedText] = []
        if let enrollment = marks.enrollment {
            status.append(enrollment.status == .completed ? "✓ Completed" : "✓ Enrolled")
        } else if marks.completedAt != nil {
            status.append("Completed · not enrolled")
        }
        if marks.isFavourite { status.append("★ Favourite") }
        if !marks.prerequisiteMet { status.append("Locked") }
        if !status.isEmpty { facts.append(("Status", .verbatim(status.map { texts($0) }.joined(separator: "   ")))) }
        let labelWidth = max(12, (facts.map { texts($0.label).displayWidth }.max() ?? 0) + 2)
        for (label, value) in facts where y < content.maxY {
            canvas.draw(texts(label), x: content.x, y: y, width: labelWidth, style: .dim)
            canvas.draw(texts(value), x: content.x + labelWidth, y: y, width: max(0, content.width - labelWidth))
            y += 1
        }
        y += 1
        guard y < content.maxY else { return }
        // As much of the description as fits; the page has the rest.
        var description = WrappedText(TerminalText.sanitize(course.description), width: content.width)
        let room = content.maxY - y
        description.wrap(upTo: room + 1)
        let more = description.lines.count > room
        for (index, line) in description.lines.prefix(room).enumerated() {
            let cut = more && index == room - 1
            canvas.draw(cut ? line + " …" : line, x: content.x, y: y, width: content.width)
            y += 1
        }
    }
}
