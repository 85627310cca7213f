import SharedKernel
import TerminalUI

/// A course's page: facts in a short table, then the description, scrollable when it does
/// not fit.
@MainActor
final class CourseDetailScreen: Screen {
    private let viewModel: CourseDetailViewModel
    private let onBack: @MainActor () -> Void
    /// From the last draw, for scrolling limits; written while drawing, so not observed.
    private var lastBodyHeight = 10
    private var lastLineCount = 0

    init(viewModel: CourseDetailViewModel, onBack: @escaping @MainActor () -> Void) {
        self.viewModel = viewModel
        self.onBack = onBack
    }

    var helpKeys: [KeyHint] {
        [
            KeyHint("e", "enroll"),
            KeyHint("f", "toggle favourite ★"),
            KeyHint("↑ ↓  k j", "scroll the description"),
            KeyHint("PgUp PgDn", "scroll a page"),
            KeyHint("Esc q Backspace", "back to the list"),
            KeyHint("r", "retry after an error"),
        ]
    }

    var keyHints: [KeyHint] {
        switch viewModel.state {
        case .loaded(let detail):
            (detail.isEnrolled ? [] : [KeyHint("e", "enroll")])
                + [KeyHint("f", detail.isFavourite ? "unfavourite" : "favourite"), KeyHint("↑↓", "scroll")]
        case .error: [KeyHint("r", "retry")]
        case .idle, .loading, .empty: []
        }
    }

    var isAnimating: Bool { viewModel.state.isLoading }

    var statusMessage: StatusMessage? {
        viewModel.isEnrolling ? StatusMessage("Enrolling…") : viewModel.status
    }

    func appear() {
        guard case .idle = viewModel.state else { return }
        Task { await viewModel.load() }
    }

    func draw(in canvas: inout some Canvas, frame: Frame) {
        StateView.draw(viewModel.state, in: &canvas, area: frame.area, tick: frame.tick, empty: ["This course has no details"]) { canvas, detail in
            drawDetail(detail, in: &canvas, area: frame.area.insetBy(horizontal: 2))
        }
    }

    /// One line of the page.
    enum Line: Equatable {
        case text(String, Style)
        /// A row of the facts table: a dimmed label column, then the value.
        case fact(label: String, value: String)
    }

    static let labelWidth = 14

    /// The lines of the page for the given width.
    static func lines(for detail: CourseDetail, width: Int) -> [Line] {
        let course = detail.course
        var lines: [Line] = TextWrapper.wrap(course.title, width: width).map { .text($0, .bold) }
        lines.append(.text("by \(course.instructor)", .dim))
        lines.append(.text("", .normal))
        lines.append(.fact(label: "Category", value: course.category ?? "—"))
        lines.append(.fact(label: "Level", value: course.level.displayName))
        lines.append(.fact(label: "Duration", value: DurationText.format(minutes: course.durationMinutes)))
        lines.append(.fact(label: "Price", value: course.price.formatted))
        lines.append(.fact(label: "Seats left", value: seatsText(course)))
        if let prerequisite = detail.prerequisiteTitle {
            lines.append(.fact(label: "Prerequisite", value: prerequisite))
        }
        var status: [String] = []
        if detail.isEnrolled { status.append("✓ Enrolled") }
        if detail.isFavourite { status.append("★ Favourite") }
        if !detail.isEnrolled && !course.isActive { status.append("Not open for enrollment") }
        if !status.isEmpty {
            lines.append(.fact(label: "Status", value: status.joined(separator: "   ")))
        }
        lines.append(.text("", .normal))
        lines += TextWrapper.wrap(course.description, width: width).map { .text($0, .normal) }
        return lines
    }

    private static func seatsText(_ course: Course) -> String {
        guard let capacity = course.capacity, let left = course.seatsLeft else { return "Unlimited" }
        return left == 0 ? "None — the course is full" : "\(left) of \(capacity)"
    }

    private func drawDetail(_ detail: CourseDetail, in canvas: inout some Canvas, area: Rect) {
        let lines = Self.lines(for: detail, width: area.width)
        lastBodyHeight = area.height
        lastLineCount = lines.count
        let offset = min(viewModel.scrollOffset, max(0, lines.count - area.height))
        for (row, line) in lines.dropFirst(offset).prefix(area.height).enumerated() {
            let y = area.y + row
            switch line {
            case .text(let text, let style):
                canvas.draw(text, x: area.x, y: y, width: area.width, style: style)
            case .fact(let label, let value):
                canvas.draw(label, x: area.x, y: y, width: Self.labelWidth, style: .dim)
                canvas.draw(value, x: area.x + Self.labelWidth, y: y, width: area.width - Self.labelWidth)
            }
        }
        if offset + area.height < lines.count {
            canvas.draw("↓ more", x: area.x + area.width - 6, y: area.maxY - 1, style: .dim)
        }
    }

    func handle(_ event: InputEvent) -> EventResult {
        let maxOffset = max(0, lastLineCount - lastBodyHeight)
        viewModel.clearStatus()
        switch event {
        case .key(.backspace):
            onBack()
        case .key(.character("e")):
            guard case .loaded = viewModel.state else { return .ignored }
            Task { await viewModel.enroll() }
        case .key(.character("f")):
            guard case .loaded = viewModel.state else { return .ignored }
            Task { await viewModel.toggleFavourite() }
        case .key(.character("r")):
            guard case .error = viewModel.state else { return .ignored }
            Task { await viewModel.load() }
        case .key(.up), .key(.character("k")), .mouse(.wheelUp):
            viewModel.scroll(by: -1, maxOffset: maxOffset)
        case .key(.down), .key(.character("j")), .mouse(.wheelDown):
            viewModel.scroll(by: 1, maxOffset: maxOffset)
        case .key(.pageUp):
            viewModel.scroll(by: -lastBodyHeight, maxOffset: maxOffset)
        case .key(.pageDown):
            viewModel.scroll(by: lastBodyHeight, maxOffset: maxOffset)
        case .key(.home), .key(.character("g")):
            viewModel.scroll(to: 0, maxOffset: maxOffset)
        case .key(.end), .key(.character("G")):
            viewModel.scroll(to: maxOffset, maxOffset: maxOffset)
        default:
            return .ignored
        }
        return .handled
    }
}
