import SharedKernel
import TerminalUI

/// The catalog's columns and how a course fills them. At 80 columns the title keeps all the
/// room it needs up to `titleTarget`: Seats and Category go first, then the level shortens to
/// three letters, then the instructor goes. Wider terminals get everything back.
struct CatalogTable {
    enum Column: Int, CaseIterable {
        case marks, title, block, instructor, category, level, seats, duration, price
    }

    static let titleTarget = 48

    static let columns: [TableColumn] = Column.allCases.map { column in
        switch column {
        case .marks: TableColumn("", width: .fixed(2), gap: 0)
        case .title: TableColumn("Title", width: .flexible(min: 5, max: 120), gap: 1)
        // Why the learner cannot join (`full`, `closed`, `locked`); absent when no row says.
        case .block: TableColumn("", width: .flexible(min: 0, max: 6), gap: 1)
        case .instructor: TableColumn("Instructor", width: .flexible(min: 10, max: 24), givesWay: 4, droppable: true)
        case .category: TableColumn("Category", width: .flexible(min: 8, max: 20), givesWay: 2, droppable: true)
        case .level: TableColumn("Level", compactHeading: "Lvl", width: .choices([12, 3]), givesWay: 3)
        case .seats: TableColumn("Seats", width: .flexible(min: 5, max: 14), alignment: .trailing, givesWay: 1, droppable: true)
        case .duration: TableColumn("Duration", width: .flexible(min: 8, max: 11), alignment: .trailing)
        case .price: TableColumn("Price", width: .flexible(min: 5, max: 14), alignment: .trailing, gap: 1)
        }
    }

    let table: Table

    /// Lays the columns out for the rows at hand (the loaded window, not only those shown,
    /// so the columns keep still while the selection moves).
    init(rows: [Row], width: Int) {
        var widths = Self.columns.map { $0.heading.displayWidth }
        for row in rows {
            for column in [Column.title, .block, .instructor, .category, .seats, .duration, .price] {
                let limit = Self.limit(of: column)
                widths[column.rawValue] = max(widths[column.rawValue], Table.contentWidth(row.text(column, levelWidth: 12), limit: limit))
            }
        }
        table = Table(Self.columns, contentWidths: widths, width: width, primary: Column.title.rawValue, primaryTarget: Self.titleTarget)
    }

    private static func limit(of column: Column) -> Int {
        switch columns[column.rawValue].width {
        case .fixed(let width): width
        case .choices(let choices): choices.first ?? 0
        case .flexible(_, let maximum): maximum
        }
    }

    func drawHeadings(in canvas: inout some Canvas, x: Int, y: Int) {
        table.drawHeadings(in: &canvas, x: x, y: y)
    }

    func draw(_ row: Row, in canvas: inout some Canvas, x: Int, y: Int, isSelected: Bool) {
        let levelWidth = table.width(of: Column.level.rawValue)
        let cells = Column.allCases.map { row.text($0, levelWidth: levelWidth) }
        var styles = [Style?](repeating: nil, count: cells.count)
        if !isSelected {
            styles[Column.marks.rawValue] = row.isSaving ? .dim : .accent
            styles[Column.block.rawValue] = .dim
            styles[Column.instructor.rawValue] = .dim
            styles[Column.category.rawValue] = .dim
            styles[Column.seats.rawValue] = .dim
        }
        table.draw(cells, styles: styles, in: &canvas, x: x, y: y, style: isSelected ? .selection : .normal)
    }

    /// One course as the table shows it, with the learner's marks.
    struct Row {
        let course: Course
        let marks: CourseMarks

        var isSaving: Bool { marks.isSavingFavourite || marks.isSavingEnrollment }

        func text(_ column: Column, levelWidth: Int) -> String {
            switch column {
            case .marks: Self.markers(marks)
            case .title: course.title
            case .block: EnrollmentRules.block(for: course, marks: marks)?.rawValue ?? ""
            case .instructor: course.instructor
            case .category: course.category ?? ""
            case .level: levelWidth >= course.level.displayName.displayWidth ? course.level.displayName : course.level.shortName
            case .seats: course.seatsLeft.map { "\($0) left" } ?? "no limit"
            case .duration: DurationText.format(minutes: course.durationMinutes)
            case .price: course.price.formatted
            }
        }

        /// `★` for a favourite, then `✓` when enrolled, each in its own column.
        static func markers(_ marks: CourseMarks) -> String {
            (marks.isFavourite ? "★" : " ") + (marks.isEnrolled ? "✓" : "")
        }
    }
}
