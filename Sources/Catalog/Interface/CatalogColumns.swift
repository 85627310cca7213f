import SharedKernel
import TerminalUI

/// The catalog table's columns, fitted to the width: the title takes what the others leave,
/// and instructor then level drop out on narrow terminals.
struct CatalogColumns: Equatable {
    static let gutter = 3  // "★✓ "
    static let gap = 2
    /// Before the duration and the price: right-aligned amounts carry their own padding.
    static let durationGap = 1
    static let priceGap = 1
    static let priceWidth = 10
    /// `10h 30min`.
    static let durationWidth = 9
    static let levelWidth = 12
    static let minimumTitle = 20

    var width: Int
    var title: Int
    var instructor: Int
    var level: Int
    var duration: Int = CatalogColumns.durationWidth
    var price: Int = CatalogColumns.priceWidth

    init(width: Int) {
        self.width = width
        var remaining = width - Self.gutter - Self.durationGap - Self.durationWidth - Self.priceGap - Self.priceWidth
        level = remaining >= Self.minimumTitle + Self.levelWidth + Self.gap + 12 ? Self.levelWidth : 0
        if level > 0 { remaining -= level + Self.gap }
        if remaining >= Self.minimumTitle + 12 + Self.gap {
            instructor = min(22, max(12, (remaining - Self.gap) * 2 / 5))
            remaining -= instructor + Self.gap
        } else {
            instructor = 0
        }
        title = max(1, remaining)
    }

    /// Draws one course row (or the headings) starting at `x`.
    func draw(_ cells: Cells, in canvas: inout some Canvas, x: Int, y: Int, style: Style) {
        var column = x
        func put(_ text: String, _ width: Int, _ cellStyle: Style, alignRight: Bool = false, gapAfter: Int = Self.gap) {
            guard width > 0 else { return }
            let cut = TerminalText.clean(text, width: width)
            let offset = alignRight ? width - cut.displayWidth : 0
            canvas.draw(cut, x: column + offset, y: y, width: width, style: cellStyle)
            column += width + gapAfter
        }
        let markStyle: Style = style == .selection ? style : (cells.saving ? .dim : .accent)
        canvas.draw(cells.markers, x: column, y: y, width: Self.gutter - 1, style: markStyle)
        column += Self.gutter
        if let block = cells.block, title > block.count + 4 {
            // Why the learner cannot join, at the end of the title cell.
            let titleRoom = title - block.count - 1
            canvas.draw(cells.title, x: column, y: y, width: titleRoom, style: style)
            canvas.draw(block, x: column + titleRoom + 1, y: y, style: style == .selection ? style : .dim)
            column += title + Self.gap
        } else {
            put(cells.title, title, style)
        }
        put(cells.instructor, instructor, style == .selection ? style : .dim)
        put(cells.level, level, style)
        // The amounts sit against the right edge, one column after the last text column.
        column = x + width - price - Self.priceGap - duration
        put(cells.duration, duration, style, alignRight: true, gapAfter: Self.priceGap)
        put(cells.price, price, style, alignRight: true)
    }

    struct Cells {
        var markers: String
        var title: String
        var instructor: String
        var level: String
        var duration: String
        var price: String
        /// `full`, `closed` or `locked`.
        var block: String?
        /// A mark in the gutter is being saved.
        var saving = false

        static let headings = Cells(
            markers: "", title: "Title", instructor: "Instructor", level: "Level", duration: "Duration", price: "Price", block: nil
        )

        init(markers: String, title: String, instructor: String, level: String, duration: String, price: String, block: String?) {
            self.markers = markers
            self.title = title
            self.instructor = instructor
            self.level = level
            self.duration = duration
            self.price = price
            self.block = block
        }

        init(course: Course, marks: CourseMarks) {
            self.init(
                markers: Self.markers(marks),
                title: course.title,
                instructor: course.instructor,
                level: course.level.displayName,
                duration: DurationText.format(minutes: course.durationMinutes),
                price: course.price.formatted,
                block: EnrollmentRules.block(for: course, marks: marks)?.rawValue
            )
            saving = marks.isSavingFavourite || marks.isSavingEnrollment
        }

        /// `★` for a favourite, then `✓` when enrolled, each in its own column.
        static func markers(_ marks: CourseMarks) -> String {
            let text = (marks.isFavourite ? "★" : " ") + (marks.isEnrolled ? "✓" : "")
            return text == " " ? "" : text
        }
    }
}
