import Presentation
import SharedKernel
import TerminalUI

/// A course's page: the title stays at the top; below it scroll the facts, the description
/// and the syllabus, where an enrolled learner selects lessons and marks them done.
@MainActor
final class CourseDetailScreen: Screen {
    enum Keys {
        static let enroll = KeyDeclaration("e", "enroll", help: "enroll in the course (a paid one asks first)", action: "course.enroll")
        static let unenroll = KeyDeclaration("u", "unenroll", help: "unenroll, after y (your progress is kept)", action: "course.unenroll")
        static let favourite = KeyDeclaration("f", "favourite", help: "mark or unmark as a favourite ★", action: "course.favourite")
        static let lessonDone = KeyDeclaration(
            "Space", "done", help: "mark the selected lesson done, and select the next", action: "course.lesson_done")
        static let lessonNotDone = KeyDeclaration(
            "Space", "not done", help: "on a done lesson: mark it not done", action: "course.lesson_not_done")
        static let selectLesson = KeyDeclaration(
            "↑↓", "lesson", help: "enrolled: select a lesson (also k j)",
            actions: [
                KeyAction("course.lesson_up", .up, title: "Previous lesson"), KeyAction("course.lesson_down", .down, title: "Next lesson"),
            ])
        static let scrollLine = KeyDeclaration(
            "↑↓", "scroll", help: "not enrolled: scroll a line (also k j)",
            actions: [
                KeyAction("course.scroll_up", .up, title: "Scroll up a line"),
                KeyAction("course.scroll_down", .down, title: "Scroll down a line"),
            ])
        static let scroll = KeyDeclaration(
            "PgUp PgDn", "scroll", help: "scroll the page (Home End: top, bottom)", inFooter: false,
            actions: [
                KeyAction("course.page_up", .pageUp, title: "Scroll up a page"),
                KeyAction("course.page_down", .pageDown, title: "Scroll down a page"),
            ])
        static let prerequisite = KeyDeclaration("p", "prerequisite", help: "open the prerequisite course", action: "course.prerequisite")
        static let back = KeyDeclaration("Backspace", "back", help: "back (also Esc, q)", inFooter: false, action: "course.back")
        static let retry = KeyDeclaration(
            "r", "reload", help: "read the course and your marks on it again (retry after an error)", action: "course.reload")
        static let read = KeyDeclaration(
            "Enter", "read", help: "enrolled: read the selected lesson and answer its questions", action: "course.read")
    }

    nonisolated static let declaredKeys = [
        Keys.read, Keys.enroll, Keys.unenroll, Keys.favourite, Keys.lessonDone, Keys.lessonNotDone, Keys.selectLesson, Keys.scrollLine,
        Keys.scroll, Keys.prerequisite,
        Keys.back, Keys.retry, YesNoQuestion.yes, YesNoQuestion.no,
    ]

    private let viewModel: CourseDetailViewModel
    private let onOpenCourse: @MainActor (CourseID) -> Void
    private let onOpenLesson: @MainActor (Int) -> Void
    private let onBack: @MainActor () -> Void
    /// From the last draw: the rows the body had, and the description wrapped at its width
    /// (kept, so scrolling a long description wraps only the part newly shown).
    private var bodyHeight = 10
    private(set) var wrappedDescription: WrappedText?

    init(
        viewModel: CourseDetailViewModel, onOpenCourse: @escaping @MainActor (CourseID) -> Void,
        onOpenLesson: @escaping @MainActor (Int) -> Void = { _ in }, onBack: @escaping @MainActor () -> Void
    ) {
        self.viewModel = viewModel
        self.onOpenCourse = onOpenCourse
        self.onOpenLesson = onOpenLesson
        self.onBack = onBack
    }

    var keys: [KeyDeclaration] { Self.declaredKeys }

    func availability(of key: KeyDeclaration) -> KeyAvailability {
        let asking = viewModel.isAsking
        switch key {
        case YesNoQuestion.yes, YesNoQuestion.no: return asking ? .available : .dormant
        case _ where asking: return .dormant
        case Keys.back: return .available
        case Keys.retry:
            switch viewModel.state {
            case .loaded, .empty, .error: return .available
            case .idle, .loading: return .unavailable(reason: "The course is being read")
            }
        default: break
        }
        guard let page = viewModel.page else {
            if case .error = viewModel.state { return .unavailable(reason: "The course could not be read — press r to retry") }
            return .dormant
        }
        let title = page.course.title
        let enrolled = viewModel.isEnrolled
        switch key {
        case Keys.enroll:
            return viewModel.enrollRefusal.map { .unavailable(reason: $0.message) } ?? .available
        case Keys.unenroll:
            return enrolled ? .available : .unavailable(reason: "You are not enrolled in \(title)")
        case Keys.lessonDone, Keys.lessonNotDone:
            // One Space, two meanings: the one for the selected lesson acts, the other sleeps.
            guard enrolled else { return .unavailable(reason: "Enroll in \(title) to mark its lessons done") }
            return viewModel.isDone(viewModel.selectedLesson) == (key == Keys.lessonNotDone) ? .available : .dormant
        case Keys.selectLesson: return enrolled ? .available : .dormant
        case Keys.read: return enrolled ? .available : .unavailable(reason: "Enroll in \(title) to read its lessons")
        case Keys.scrollLine: return enrolled ? .dormant : .available
        case Keys.favourite, Keys.scroll: return .available
        case Keys.prerequisite:
            return page.prerequisite == nil ? .unavailable(reason: "\(title) has no prerequisite") : .available
        default: return .dormant
        }
    }

    var isAnimating: Bool { viewModel.state.isLoading }

    var statusMessage: StatusMessage? {
        if viewModel.isConfirmingUnenroll, let course = viewModel.page?.course {
            let done = viewModel.marks?.enrollment?.lessonsDone.count ?? 0
            return .unenrollQuestion(title: course.title, lessonsDone: done, of: course.lessonCount)
        }
        if viewModel.isConfirmingEnroll, let course = viewModel.page?.course {
            return .enrollQuestion(title: course.title, price: course.price)
        }
        return nil
    }

    var isCapturingText: Bool { viewModel.isAsking }

    func accepts(_ event: InputEvent) -> Bool {
        switch viewModel.state {
        case .idle, .loading: false
        case .loaded, .empty, .error: true
        }
    }

    /// Loads a page not loaded yet, or one that failed (it comes back into view, or the
    /// server answers again).
    func appear() {
        switch viewModel.state {
        case .idle, .error: break
        case .loading, .empty, .loaded: return
        }
        let viewModel = self.viewModel
        viewModel.tasks.run { await viewModel.load() }
    }

    func disappear() {
        viewModel.tasks.cancelAll()
    }

    func settle() async {
        await viewModel.tasks.settle()
    }

    // MARK: - Drawing

    func draw(in canvas: inout some Canvas, frame: Frame) {
        let texts = frame.texts
        drawnTexts = texts
        StateView.draw(
            viewModel.state, in: &canvas, area: frame.area, tick: frame.tick, texts: texts, empty: ["This course has no details"]
        ) {
            canvas, page in
            drawPage(page, in: &canvas, area: Self.readingArea(frame.area), texts: texts)
        }
    }

    /// The words the page was last drawn in, for the scrolling that measures its lines.
    private var drawnTexts = Texts.english

    private func drawPage(_ page: CoursePage, in canvas: inout some Canvas, area: Rect, texts: Texts) {
        let course = page.course
        // The title stays: at most two lines of it, then who teaches it.
        let title = TextWrapper.wrap(course.title, width: area.width)
        var y = area.y
        for (index, line) in title.prefix(2).enumerated() {
            let cut = index == 1 && title.count > 2 ? TerminalText.truncate(line, toWidth: area.width, ellipsis: true) : line
            canvas.draw(cut, x: area.x, y: y, width: area.width, style: .bold)
            // The title is what the page is about; a selected lesson, drawn later, takes over.
            if index == 0 { canvas.markFocus(x: area.x, y: y) }
            y += 1
        }
        canvas.draw(texts("by \(course.instructor)"), x: area.x, y: y, width: area.width, style: .dim)
        y += 2
        let body = Rect(x: area.x, y: y, width: area.width, height: area.maxY - y)
        bodyHeight = max(1, body.height)
        var lines = bodyLines(for: page, width: body.width, texts: texts)
        let labelWidth = max(Self.labelWidth, lines.prefixLabelWidth + 2)
        let offset = clampedOffset(viewModel.scrollOffset, lines: &lines)
        let up = offset > 0
        let rows = body.height - (up ? 1 : 0)
        let down = lines.exists(offset + rows)
        let contentRows = rows - (down ? 1 : 0)
        var row = body.y
        let upMore = texts("↑ more")
        let downMore = texts("↓ more")
        if up {
            canvas.draw(upMore, x: body.x + body.width - upMore.displayWidth, y: row, style: .dim)
            row += 1
        }
        for index in offset..<(offset + max(0, contentRows)) {
            guard let line = lines.line(at: index) else { break }
            draw(line, page: page, in: &canvas, x: body.x, y: row, width: body.width, labelWidth: labelWidth)
            row += 1
        }
        if down {
            canvas.draw(downMore, x: body.x + body.width - downMore.displayWidth, y: body.maxY - 1, style: .dim)
        }
    }

    private func draw(_ line: Line, page: CoursePage, in canvas: inout some Canvas, x: Int, y: Int, width: Int, labelWidth: Int) {
        switch line {
        case .text(let text, let style):
            canvas.draw(text, x: x, y: y, width: width, style: style)
        case .fact(let label, let value):
            canvas.draw(label, x: x, y: y, width: labelWidth, style: .dim)
            canvas.draw(value, x: x + labelWidth, y: y, width: width - labelWidth)
        case .lesson(let index):
            let lesson = page.syllabus.lessons[index]
            let selected = viewModel.isEnrolled && index == viewModel.selectedLesson
            let style: Style = selected ? .selection : .normal
            if selected { canvas.fill(Rect(x: x, y: y, width: width, height: 1), style: .selection) }
            let saving = viewModel.marks?.isSavingEnrollment ?? false
            if selected { canvas.markFocus(x: x, y: y) }
            let doneWord = canvas.isAccessible && viewModel.isDone(index) ? " · " + drawnTexts("done") : ""
            if viewModel.isDone(index), !canvas.isAccessible {
                canvas.draw("✓", x: x, y: y, style: selected ? style : (saving ? .dim : .marks))
            }
            let minutes = drawnTexts(DurationText.format(minutes: lesson.minutes))
            let number = "\(index + 1). "
            let titleX = x + 2 + number.displayWidth
            canvas.draw(number, x: x + 2, y: y, style: selected ? style : .dim)
            canvas.draw(
                lesson.title + doneWord, x: titleX, y: y, width: max(1, width - (titleX - x) - minutes.displayWidth - 2), style: style)
            canvas.draw(minutes, x: x + width - minutes.displayWidth, y: y, style: selected ? style : .dim)
        }
    }

    /// The scrolling lines: facts, the description (wrapped lazily), the syllabus.
    private func bodyLines(for page: CoursePage, width: Int, texts: Texts) -> PageLines {
        let course = page.course
        let marks = viewModel.marks ?? CourseMarks()
        func fact(_ label: LocalizedText, _ value: LocalizedText) -> Line { .fact(label: texts(label), value: texts(value)) }
        var facts: [Line] = Self.facts(of: viewModel.shownCourse ?? course).map { fact($0.label, $0.value) }
        if let prerequisite = page.prerequisite {
            let met: LocalizedText = marks.prerequisiteMet ? "completed" : "complete it first (p opens it)"
            facts.append(fact("Prerequisite", "\(prerequisite.title) — \(met)"))
        }
        if !course.tags.isEmpty {
            facts.append(fact("Tags", .verbatim(course.tags.joined(separator: ", "))))
        }
        let status = Self.status(marks: marks, refusal: viewModel.enrollRefusal)
        if !status.isEmpty {
            facts.append(.fact(label: texts("Status"), value: status.map { texts($0) }.joined(separator: "   ")))
        }
        if let enrollment = marks.enrollment {
            let done = enrollment.lessonsDone.count
            let percent = LessonRules.percent(done: done, of: course.lessonCount)
            facts.append(fact("Progress", "\(done) of \(plural: course.lessonCount) lessons · \(percent)%"))
            if enrollment.holdsPlace, let next = page.syllabus.lessons.indices.first(where: { !enrollment.lessonsDone.contains($0 + 1) }) {
                facts.append(fact("Continue", .verbatim("\(next + 1). \(page.syllabus.lessons[next].title)")))
            }
        }
        let questions = page.syllabus.lessons.reduce(0) { $0 + $1.questionCount }
        if questions > 0, let answers = page.answers, marks.enrollment != nil || !answers.isEmpty {
            // Answers given offline count once the server has checked them.
            let checked = answers.filter(\.isChecked)
            let right = checked.filter(\.isRight).count
            let open = max(0, questions - answers.count)
            let waiting = answers.count - checked.count
            // The checked answers decide the participle (`1 de 1 acertada`).
            var score: LocalizedText = "\(right) of \(plural: checked.count) answered right"
            if waiting > 0 { score = checked.isEmpty ? "\(waiting) to be checked" : "\(score) · \(waiting) to be checked" }
            facts.append(fact("Score", open > 0 ? "\(score) · \(open) to answer" : score))
        } else if questions > 0, page.answers == nil, marks.enrollment != nil {
            facts.append(fact("Score", "— (could not be read)"))
        }
        facts = Self.wrappingValues(facts, width: width)
        facts.append(.text("", .normal))

        let description: WrappedText
        if let wrapped = wrappedDescription, wrapped.width == width {
            description = wrapped
        } else {
            description = WrappedText(TerminalText.sanitize(course.description, keepingNewlines: true), width: width)
            wrappedDescription = description
        }
        let lessons = page.syllabus.lessons
        let total = texts(DurationText.format(minutes: page.syllabus.totalMinutes))
        var syllabus: [Line] = [
            .text("", .normal), .text(texts("Syllabus") + "  " + texts("\(lessons.count) lessons") + " · \(total)", .bold),
        ]
        syllabus += lessons.indices.map(Line.lesson)
        return PageLines(prefix: facts, description: description, suffix: syllabus) { [weak self] wrapped in
            self?.wrappedDescription = wrapped
        }
    }

    /// The offset drawn: what was asked, but never past the last screenful.
    private func clampedOffset(_ offset: Int, lines: inout PageLines) -> Int {
        guard offset > 0 else { return 0 }
        lines.ensure(upTo: offset + bodyHeight)
        guard lines.isComplete else { return offset }
        return min(offset, max(0, lines.count - bodyHeight + 1))
    }

    // MARK: - Keys

    func handle(_ event: InputEvent) async -> EventResult {
        if viewModel.isAsking {
            let unenrolling = viewModel.isConfirmingUnenroll
            switch YesNoQuestion.answer(to: event) {
            case .yes: unenrolling ? viewModel.confirmUnenroll() : viewModel.confirmEnroll()
            case .no: unenrolling ? viewModel.cancelUnenroll() : viewModel.cancelEnroll()
            case nil: break
            }
            return .handled
        }
        switch event {
        case .key(.backspace):
            onBack()
        case .key(.character("e")):
            // Offered only when it can succeed; the shell says why when it cannot (and the
            // rules refuse again here, with the reason, writing nothing).
            guard viewModel.page != nil, !viewModel.isAsking else { return .ignored }
            viewModel.requestEnroll()
        case .key(.character("u")):
            guard isAvailable(Keys.unenroll) else { return .ignored }
            viewModel.requestUnenroll()
        case .key(.character("f")):
            guard isAvailable(Keys.favourite) else { return .ignored }
            viewModel.toggleFavourite()
        case .key(.character("p")):
            guard isAvailable(Keys.prerequisite), let prerequisite = viewModel.page?.prerequisite else { return .ignored }
            onOpenCourse(prerequisite.id)
        case .key(.character(" ")):
            guard viewModel.isEnrolled else { return .ignored }
            let lesson = viewModel.selectedLesson
            viewModel.toggleSelectedLesson()
            revealLesson(max(lesson, viewModel.selectedLesson))
        case .key(.character("r")):
            guard isAvailable(Keys.retry) else { return .ignored }
            await viewModel.reload()
        case .key(.enter):
            guard isAvailable(Keys.read) else { return .ignored }
            onOpenLesson(viewModel.selectedLesson + 1)
        case .key(.up), .key(.character("k")):
            moveUpOrDown(-1)
        case .key(.down), .key(.character("j")):
            moveUpOrDown(1)
        case .mouse(.wheelUp):
            scroll(by: -3)
        case .mouse(.wheelDown):
            scroll(by: 3)
        case .key(.pageUp):
            scroll(by: -max(1, bodyHeight - 2))
        case .key(.pageDown):
            scroll(by: max(1, bodyHeight - 2))
        case .key(.home), .key(.character("g")):
            viewModel.scroll(to: 0)
        case .key(.end), .key(.character("G")):
            scroll(by: .max / 2)
        default:
            return .ignored
        }
        return .handled
    }

    /// ↑/↓: select a lesson when enrolled, else scroll a line.
    private func moveUpOrDown(_ delta: Int) {
        guard viewModel.isEnrolled else {
            scroll(by: delta)
            return
        }
        viewModel.selectLesson(by: delta)
        revealLesson(viewModel.selectedLesson)
    }

    private func scroll(by delta: Int) {
        guard let page = viewModel.page else { return }
        var lines = bodyLines(for: page, width: wrappedDescription?.width ?? 76, texts: drawnTexts)
        let wanted = max(0, viewModel.scrollOffset + delta)
        let target = wanted >= .max / 4 ? Int.max / 4 : wanted
        if target >= Int.max / 4 { lines.ensureAll() } else { lines.ensure(upTo: target + bodyHeight) }
        let maximum = lines.isComplete ? max(0, lines.count - bodyHeight + 1) : target
        viewModel.scroll(to: min(target, maximum))
    }

    /// Scrolls just enough to show a lesson's line (with the marks' rows around it).
    private func revealLesson(_ index: Int) {
        guard let page = viewModel.page else { return }
        var lines = bodyLines(for: page, width: wrappedDescription?.width ?? 76, texts: drawnTexts)
        lines.ensureAll()
        guard let line = lines.index(ofLesson: index) else { return }
        let offset = viewModel.scrollOffset
        let visibleRows = max(1, bodyHeight - 2)
        if line < offset + 1 {
            viewModel.scroll(to: max(0, line - 1))
        } else if line >= offset + visibleRows {
            viewModel.scroll(to: line - visibleRows + 1)
        }
    }
}
