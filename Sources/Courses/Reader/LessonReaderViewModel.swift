import Observation
import Presentation
import SharedKernel

/// One lesson as the reader shows it: where it sits in its course, its text and questions,
/// and the learner's answers to them (by question index).
struct LessonPage: Sendable {
    var syllabus: Syllabus
    /// The lesson's number, from 1.
    var number: Int
    var content: LessonContent
    var answers: [Int: Answer]
    /// The body, parsed once; `nil` for a lesson that has no text yet.
    var text: MarkdownText?

    var course: Course { syllabus.course }
    var lesson: Lesson { syllabus.lessons[number - 1] }
    var questions: [Question] { content.questions }
    var hasNext: Bool { number < syllabus.lessons.count }
    var allAnswered: Bool { questions.indices.allSatisfy { answers[$0] != nil } }
    var firstUnanswered: Int? { questions.indices.first { answers[$0] == nil } }
}

/// The lesson reader: load state, which part is on screen (the text, or question i), the
/// choices picked for the open question, and an answer being saved.
@Observable
@MainActor
final class LessonReaderViewModel {
    enum Part: Hashable {
        case text
        case question(Int)
    }

    let courseID: CourseID
    let number: Int
    private(set) var state: ViewState<LessonPage> = .idle
    private(set) var part: Part = .text
    /// The position the arrows are on, in the open question's choices as shown.
    private(set) var highlighted = 0
    /// The choices picked (1–6, or Space) in the open question, not yet answered: the
    /// question's own indices.
    private(set) var picked: Set<Int> = []
    /// The order the open question's choices are shown in: fixed when it opens, so a redraw
    /// never reorders them.
    private(set) var order = ChoiceOrder(choices: [])
    private(set) var isAnswering = false
    /// Moves when the screen scrolls its text (the screen keeps the position, which depends
    /// on the width it draws at): the frame is drawn again.
    private(set) var scrolls = 0
    @ObservationIgnored let tasks = OwnedTasks()
    /// Counts the reads of the answers: one that a later read overtook is dropped.
    @ObservationIgnored private var answerReads = 0
    @ObservationIgnored private let ports: ReaderPorts
    @ObservationIgnored private let progress: LearnerEnrollments

    /// `answersChanged`: news that the learner's answers in a course (nil: any) changed
    /// elsewhere, or were checked once sent from the queue; the lesson's are read again.
    init(
        courseID: CourseID, number: Int, ports: ReaderPorts, progress: LearnerEnrollments,
        answersChanged: Notices<CourseID?> = Notices()
    ) {
        self.courseID = courseID
        self.number = number
        self.ports = ports
        self.progress = progress
        answersChanged.listen(self) { [weak self] id in
            guard let self, id == nil || id == courseID else { return }
            tasks.run { [weak self] in await self?.readAnswers() }
        }
    }

    var page: LessonPage? { state.value }

    /// Whether the learner marked this lesson done (a save under way included).
    var isDone: Bool { progress.enrollment(for: courseID)?.lessonsDone.contains(number) ?? false }
    var holdsPlace: Bool { progress.enrollment(for: courseID) != nil }

    /// Reads the lesson's course, text and the learner's answers; ignored while a load runs.
    func load() async {
        if case .loading = state { return }
        state = .loading
        do {
            let ports = self.ports
            let (courseID, number) = (self.courseID, self.number)
            async let syllabus = ports.syllabus(courseID)
            async let content = ports.content(courseID, number)
            async let answers = ports.answers(courseID)
            // Answers that cannot be read (the server away, the lesson kept offline) leave the
            // lesson readable, and the learner told.
            let loadedAnswers = try? await answers
            let (loadedSyllabus, loadedContent) = try await (syllabus, content)
            guard loadedSyllabus.lessons.indices.contains(number - 1) else { throw AppError.noSuchLesson(courseID, number) }
            if loadedAnswers == nil, !loadedContent.questions.isEmpty {
                ports.report(.error("Your earlier answers could not be read"))
            }
            state = .loaded(
                LessonPage(
                    syllabus: loadedSyllabus, number: number, content: loadedContent, answers: mine(loadedAnswers ?? []),
                    text: loadedContent.body.map { MarkdownText(parsing: $0) }))
        } catch is CancellationError {
            state = .idle
        } catch let error as AppError {
            state = .error(message: Self.unreadable(error))
        } catch {
            state = .error(message: AppError.storage(.reading, detail: "\(error)").userMessage)
        }
    }

    /// Why the lesson cannot be read. Remote mode reads a lesson saved for offline from the
    /// replica whenever the server is away, so the server's absence means one not saved here.
    static func unreadable(_ error: AppError) -> LocalizedText {
        guard case .unreachable(let host) = error else { return error.userMessage }
        return "This lesson is not saved for offline: it opens when \(host) answers again"
    }

    /// The lesson's answers read again, over those shown (one that cannot be read keeps
    /// what shows): an answer given offline shows checked once the server has it.
    func readAnswers() async {
        answerReads &+= 1
        let read = answerReads
        guard let page, !page.questions.isEmpty, let fresh = try? await ports.answers(courseID),
            read == answerReads, case .loaded(var shown) = state
        else { return }
        shown.answers.merge(mine(fresh)) { _, fresh in fresh }
        state = .loaded(shown)
    }

    /// This lesson's answers, by question.
    private func mine(_ answers: [Answer]) -> [Int: Answer] {
        Dictionary(answers.filter { $0.ref.lesson == number }.map { ($0.ref.question, $0) }, uniquingKeysWith: { a, _ in a })
    }

    func touch() {
        scrolls &+= 1
    }

    // MARK: - Questions

    /// Opens question `index` (its answer shown if it has one), the first choice under the arrows.
    func open(question index: Int) {
        guard let page, page.questions.indices.contains(index) else { return }
        part = .question(index)
        highlighted = 0
        picked = []
        let ref = QuestionRef(courseID: courseID, lesson: number, question: index)
        order = ChoiceOrder.shuffled(count: page.questions[index].choices.count, for: ref, on: ports.today())
    }

    func backToText() {
        part = .text
    }

    var openQuestion: (index: Int, question: Question)? {
        guard case .question(let index) = part, let page, page.questions.indices.contains(index) else { return nil }
        return (index, page.questions[index])
    }

    func answer(to index: Int) -> Answer? { page?.answers[index] }

    func moveHighlight(_ delta: Int) {
        guard let open = openQuestion else { return }
        highlighted = min(max(0, highlighted + delta), open.question.choices.count - 1)
    }

    /// `1`–`6` or Space on the choice shown at `position`: one choice of a question with one
    /// right answer; on and off for one that has several.
    func pick(at position: Int) {
        guard let open = openQuestion, answer(to: open.index) == nil, let choice = order.choice(at: position),
            open.question.choices.indices.contains(choice)
        else { return }
        highlighted = position
        if open.question.answerCount > 1 {
            if picked.contains(choice) { picked.remove(choice) } else { picked.insert(choice) }
        } else {
            picked = [choice]
        }
    }

    /// `Enter`: answers the open question with the choices picked, and shows whether it was
    /// right, with the explanation. Nothing picked answers nothing: the first answer is kept
    /// for good, so it is never one the learner did not choose.
    func answerOpenQuestion() async {
        guard let open = openQuestion, answer(to: open.index) == nil, !isAnswering else { return }
        guard !picked.isEmpty else {
            ports.report(.error("Pick an answer first"))
            return
        }
        let chosen = picked
        let ref = QuestionRef(courseID: courseID, lesson: number, question: open.index)
        isAnswering = true
        defer { isAnswering = false }
        do {
            let answer = try await ports.answer(chosen, ref)
            guard case .loaded(var page) = state else { return }
            page.answers[open.index] = answer
            state = .loaded(page)
            picked = []
            // The store keeps the first answer: one given meanwhile in another terminal is
            // the one shown, and said to be.
            if answer.chosen != chosen { ports.report(StatusMessage("Answered in another terminal: this is that answer")) }
        } catch {
            ports.report(.error(error.userMessage))
        }
    }

    /// Marks the lesson done (as Space on the course page does); the shell shows the outcome.
    func markDone() {
        guard let page, !isDone, holdsPlace else { return }
        progress.setLesson(number, titled: page.lesson.title, of: page.course, done: true)
    }
}

/// What the reader reads and writes through, given by the feature.
struct ReaderPorts: Sendable {
    var syllabus: @Sendable (CourseID) async throws(AppError) -> Syllabus
    var content: @Sendable (CourseID, Int) async throws(AppError) -> LessonContent
    var answers: @Sendable (CourseID) async throws(AppError) -> [Answer]
    var answer: @Sendable (Set<Int>, QuestionRef) async throws(AppError) -> Answer
    /// The learner's day: the order of a question's choices is the day's.
    var today: @MainActor @Sendable () -> LearnerDay
    var report: @MainActor @Sendable (StatusMessage) -> Void
}
