import Presentation
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
        case .marks: .marks
        case .title: .title
        // Why the learner cannot join (`full`, `closed`, `locked`); absent when no course
        // of the window could say.
        case .block: TableColumn("", width: .flexible(min: 0, max: 8), gap: 1)
        case .instructor: TableColumn("Instructor", width: .flexible(min: 10, max: 24), givesWay: 4, droppable: true)
        case .category: TableColumn("Category", width: .flexible(min: 8, max: 20), givesWay: 2, droppable: true)
        case .level: TableColumn("Level", compactHeading: "Lvl", width: .choices([12, 3]), givesWay: 3)
        case .seats:
            TableColumn("Seats", width: .flexible(min: 5, max: 14), alignment: .trailing, givesWay: 1, droppable: true, keepsWhole: true)
        case .duration: TableColumn("Duration", compactHeading: "Dur.", width: .flexible(min: 8, max: 11), alignment: .trailing)
        case .price: TableColumn("Price", width: .flexible(min: 5, max: 14), alignment: .trailing, gap: 1)
        }
    }

    let table: Table
    let texts: Texts
    let accessible: Bool
    /// The duration and price columns too narrow for their widest full text: every row takes
    /// the short form there, so a column never mixes `25,00 €` and `49 US$`.
    private let compactColumns: Set<Int>

    /// Lays the columns out for these courses (the loaded window, not only those shown, so
    /// the columns keep still while the selection moves).
    init(courses: [Course], width: Int, texts: Texts = .english) {
        self.init(contentWidths: Self.contentWidths(of: courses, texts: texts), width: width, texts: texts)
    }

    /// The widest text of each column, and the widest short forms of the duration and the
    /// price: a column narrowed to its short form must still hold the widest of those whole.
    struct ContentWidths: Equatable {
        var columns: [Int]
        var compactDuration = 0
        var compactPrice = 0
    }

    /// Lays the columns out with the widths `contentWidths(of:)` measured.
    /// `markWords`: in the accessible mode, the widest marks of the rows, spelled as words
    /// (`favourite enrolled`); nil draws the symbols (`★✓`).
    init(contentWidths measured: ContentWidths, width: Int, texts: Texts, markWords: Int? = nil) {
        self.texts = texts
        self.accessible = markWords != nil
        var columns = Self.columns.map { $0.translated(texts) }
        var contentWidths = measured.columns
        let title = Column.title.rawValue
        if let markWords {
            // Spelled, the marks follow the title (`…, favourite, enrolled`): a column of
            // them before every title took 21 columns of it at 80.
            columns[Column.marks.rawValue] = TableColumn("", width: .fixed(1), gap: 0)
            if markWords > 0, contentWidths.indices.contains(title) { contentWidths[title] += markWords + 2 }
        }
        var table = Table(columns, contentWidths: contentWidths, width: width, primary: title, primaryTarget: Self.titleTarget)
        if table.width(of: title) < min(contentWidths[title], width / 2) {
            // The title keeps at least half the row: the duration and the price give way
            // too, last, to their short forms (`2h10`, `25 €`).
            columns[Column.duration.rawValue].width = .flexible(min: min(max(5, measured.compactDuration), 11), max: 11)
            columns[Column.duration.rawValue].givesWay = 5
            // `101.99 €` is 8 columns: the title gives up the one more it needs.
            columns[Column.price.rawValue].width = .flexible(min: min(max(7, measured.compactPrice), 14), max: 14)
            columns[Column.price.rawValue].givesWay = 6
            table = Table(columns, contentWidths: contentWidths, width: width, primary: title, primaryTarget: Self.titleTarget)
        }
        self.table = table
        compactColumns = Set(
            [Column.duration, .price].map(\.rawValue).filter {
                contentWidths.indices.contains($0) && contentWidths[$0] > table.width(of: $0)
            })
    }

    /// The widest text of each column over `courses`, headings included. The block column
    /// has room for the words these courses could show (`full`, `closed`, `locked`), whatever
    /// the learner's marks: the columns stay put when the learner enrolls or completes one.
    static func contentWidths(of courses: [Course], texts: Texts) -> ContentWidths {
        let measured = [Column.title, .instructor, .category, .seats, .duration, .price].map(\.rawValue)
        let columns = columns.map { $0.translated(texts) }
        var widths = Table.contentWidths(of: courses, columns: columns, measuring: measured) { course, column in
            Row(course: course, marks: CourseMarks()).text(Column(rawValue: column) ?? .title, levelWidth: 12, texts: texts)
        }
        let block =
            courses.lazy.compactMap { course in
                EnrollmentRules.block(for: course, marks: CourseMarks(prerequisiteMet: course.prerequisiteID == nil))
                    .map { texts($0.label).displayWidth }
            }.max() ?? 0
        widths[Column.block.rawValue] = max(widths[Column.block.rawValue], block)
        var measuredWidths = ContentWidths(columns: widths)
        for course in courses {
            let row = Row(course: course, marks: CourseMarks())
            measuredWidths.compactDuration = max(measuredWidths.compactDuration, row.compactText(.duration, texts: texts).displayWidth)
            measuredWidths.compactPrice = max(measuredWidths.compactPrice, row.compactText(.price, texts: texts).displayWidth)
        }
        return measuredWidths
    }

    func drawHeadings(in canvas: inout some Canvas, x: Int, y: Int) {
        table.drawHeadings(in: &canvas, x: x, y: y)
    }

    func draw(_ row: Row, in canvas: inout some Canvas, x: Int, y: Int, isSelected: Bool) {
        let levelWidth = table.width(of: Column.level.rawValue)
        var cells = Column.allCases.map { row.text($0, levelWidth: levelWidth, texts: texts) }
        // A duration or a price takes its short form in a column too narrow for the widest
        // (and a row measured after the layout, wider than its column).
        for column in [Column.duration, .price]
        where compactColumns.contains(column.rawValue) || cells[column.rawValue].displayWidth > table.width(of: column.rawValue) {
            cells[column.rawValue] = row.compactText(column, texts: texts)
        }
        if accessible {
            let words = Row.markWords(favourite: row.marks.isFavourite, enrolled: row.marks.isEnrolled, texts: texts)
            cells[Column.marks.rawValue] = ""
            if !words.isEmpty { cells[Column.title.rawValue] += ", " + words }
        }
        var styles = [Style?](repeating: nil, count: cells.count)
        if !isSelected {
            styles[Column.marks.rawValue] = row.isSaving ? .dim : .marks
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

        func text(_ column: Column, levelWidth: Int, texts: Texts) -> String {
            switch column {
            case .marks: Self.markers(marks)
            case .title: course.title
            case .block: EnrollmentRules.block(for: course, marks: marks).map { texts($0.label) } ?? ""
            case .instructor: course.instructor
            case .category: course.categoryName.map { texts($0) } ?? ""
            case .level:
                levelWidth >= texts(course.level.displayName).displayWidth
                    ? texts(course.level.displayName) : texts(course.level.shortName)
            case .seats: texts(course.seatsLeft.map { "\($0) left" } ?? "no limit")
            case .duration: texts(DurationText.format(minutes: course.durationMinutes))
            case .price: texts("\(course.price)")
            }
        }

        /// A duration or a price in a narrow column: `2h10`, `25 €`.
        func compactText(_ column: Column, texts: Texts) -> String {
            switch column {
            case .duration: DurationText.compact(minutes: course.durationMinutes)
            case .price: course.price.isFree ? texts("\(course.price)") : texts.language.compactAmount(course.price)
            default: text(column, levelWidth: 12, texts: texts)
            }
        }

        /// `favourite enrolled`, the accessible mode's marks: words a screen reader says.
        static func markWords(favourite: Bool, enrolled: Bool, texts: Texts) -> String {
            [favourite ? texts("favourite") : nil, enrolled ? texts("enrolled") : nil].compactMap { $0 }.joined(separator: ", ")
        }

        /// `★` for a favourite, then `✓` when enrolled, each in its own column.
        static func markers(_ marks: CourseMarks) -> String {
            (marks.isFavourite ? "★" : " ") + (marks.isEnrolled ? "✓" : "")
        }
    }
}
