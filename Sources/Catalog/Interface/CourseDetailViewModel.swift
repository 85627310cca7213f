import Observation
import Presentation
import SharedKernel

/// What a course's page shows besides the learner's marks: the course, its lessons, and its
/// prerequisite when it has one that still exists.
struct CoursePage: Hashable, Sendable {
    var syllabus: Syllabus
    var prerequisite: Course?
    /// The learner's answers to the course's questions: the page's score; nil when they could
    /// not be read (the server away).
    var answers: [Answer]? = []

    var course: Course { syllabus.course }
}

/// One course's page: its load state, the selected lesson, how far it is scrolled, an
/// unenroll waiting for `y`, and the outcome of the last action.
@Observable
@MainActor
final class CourseDetailViewModel {
    let courseID: CourseID
    let learner: CatalogLearner
    private(set) var state: ViewState<CoursePage> = .idle
    private(set) var scrollOffset = 0
    /// The selected lesson, from 0; meaningful while enrolled.
    private(set) var selectedLesson = 0
    private(set) var isConfirmingUnenroll = false
    /// `e` on a paid course asks first: `Enroll in <title> for 74.00 EUR? (y/n)`.
    private(set) var isConfirmingEnroll = false
    /// A y/n question is asked: it has the keyboard.
    var isAsking: Bool { isConfirmingUnenroll || isConfirmingEnroll }
    /// The seat the learner's own `e` takes (+1) or `u` frees (-1), until the page is read again.
    private(set) var seatCorrection = 0
    @ObservationIgnored let tasks = OwnedTasks()
    @ObservationIgnored private let courses: any CourseRepository

    init(courseID: CourseID, courses: any CourseRepository, learner: CatalogLearner, changes: Notices<CatalogChange> = Notices()) {
        self.courseID = courseID
        self.courses = courses
        self.learner = learner
        changes.listen(self) { [weak self] change in self?.storeChanged(change) }
    }

    /// The store changed this course, its prerequisite, or maybe anything: the page is read
    /// again quietly, the selected lesson and the scroll kept.
    private func storeChanged(_ change: CatalogChange) {
        let shown = [courseID] + (page?.prerequisite.map { [$0.id] } ?? [])
        guard change.everything || shown.contains(where: change.courses.contains) || change.answers.contains(courseID) else { return }
        tasks.run { [weak self] in await self?.refresh() }
    }

    var page: CoursePage? { state.value }

    /// The learner's marks on this course, as shown now.
    var marks: CourseMarks? { page.map { learner.marks($0.course) } }

    var isEnrolled: Bool { marks?.isEnrolled ?? false }

    /// The course as shown: its seat count moved by the learner's own joining or leaving
    /// until the page is read again after the store answered (the store's count then has it).
    var shownCourse: Course? {
        guard var course = page?.course else { return nil }
        course.enrolledCount = max(0, Saturating.add(course.enrolledCount, seatCorrection))
        return course
    }

    /// Why the learner cannot enroll now, by the rules `e` is checked by (already enrolled,
    /// closed, full, prerequisite not completed); `nil` when they can, or nothing is loaded.
    var enrollRefusal: EnrollmentRefusal? {
        guard let page, let marks else { return nil }
        let prerequisite = page.prerequisite.map { (course: $0, completed: marks.prerequisiteMet) }
        return EnrollmentRules.refusal(for: page.course, existing: marks.enrollment, prerequisite: prerequisite)
    }

    func isDone(_ lesson: Int) -> Bool {
        marks?.enrollment?.lessonsDone.contains(lesson + 1) ?? false
    }

    /// Loads the course, its lessons and its prerequisite, and the learner's marks on it as
    /// the store has them now; ignored while a load is in flight. The first lesson not done
    /// is selected on arrival.
    func load() async {
        guard !state.isLoading else { return }
        state = .loading
        async let marks: Void = learner.readAgain(courseID)
        let read = await readPage()
        await marks
        switch read {
        case .success(let page):
            // Its prerequisite's completion too (`locked`), before the learner's lists are loaded.
            await learner.prepare([page.course])
            state = .loaded(page)
            let done = learner.marks(page.course).enrollment?.lessonsDone ?? []
            selectedLesson = (0..<page.syllabus.lessons.count).first { !done.contains($0 + 1) } ?? 0
        case .failure(let error):
            state = .error(message: error.userMessage)
        }
    }

    /// `r`, or the store changed the course: read again with the page on screen, the selected
    /// lesson and the scroll kept; a failure keeps what shows. With nothing on screen, loads.
    func reload() async {
        guard page != nil else { return await load() }
        async let marks: Void = learner.readAgain(courseID)
        await refresh()
        await marks
    }

    private func refresh() async {
        guard page != nil, !state.isLoading else { return }
        guard case .success(let fresh) = await readPage() else { return }
        state = .loaded(fresh)
        selectedLesson = min(selectedLesson, max(0, fresh.syllabus.lessons.count - 1))
    }

    /// The course, its lessons and its prerequisite as the store has them.
    private func readPage() async -> Result<CoursePage, AppError> {
        do throws(AppError) {
            let syllabus = try await courses.syllabus(of: courseID)
            var prerequisite: Course?
            if let id = syllabus.course.prerequisiteID {
                do {
                    prerequisite = try await courses.course(id: id)
                } catch .courseNotFound {
                    // A prerequisite removed from the catalog no longer blocks anything.
                }
            }
            // A score that cannot be read says so, and leaves the page not in error.
            let answers = try? await learner.answers(courseID)
            return .success(CoursePage(syllabus: syllabus, prerequisite: prerequisite, answers: answers))
        } catch {
            return .failure(error)
        }
    }

    // Each action changes what the page shows before it returns, so the next key acts on
    // the changed page; the save runs on, and its outcome is reported.

    /// `e`: shown enrolled at once (or refused, with the reason, when the rules say no).
    func enroll() {
        guard let page else { return }
        let wasEnrolled = isEnrolled
        let save = learner.enroll(page.course, page.prerequisite)
        if !wasEnrolled, isEnrolled { correctSeats(by: 1, until: save) } else { follow(save) }
    }

    /// `e`: a free course is joined at once; a paid one (not joined yet) asks first, as `u` does.
    func requestEnroll() {
        guard let page else { return }
        guard !page.course.price.isFree, !isEnrolled, enrollRefusal == nil else { return enroll() }
        isConfirmingEnroll = true
    }

    func cancelEnroll() {
        isConfirmingEnroll = false
    }

    func confirmEnroll() {
        isConfirmingEnroll = false
        enroll()
    }

    /// `u`: asks `Unenroll from <title>? (y/n)`.
    func requestUnenroll() {
        isConfirmingUnenroll = true
    }

    func cancelUnenroll() {
        isConfirmingUnenroll = false
    }

    func confirmUnenroll() {
        guard let page else { return }
        isConfirmingUnenroll = false
        correctSeats(by: -1, until: learner.unenroll(page.course))
    }

    /// Moves the seats shown by the learner's own change until the store has answered and the
    /// page is read again (or the change was undone).
    private func correctSeats(by delta: Int, until save: Task<Void, Never>) {
        seatCorrection += delta
        tasks.run { [weak self] in
            await save.value
            await self?.refresh()
            self?.seatCorrection -= delta
        }
    }

    /// `f`: the ★ flips at once.
    func toggleFavourite() {
        guard let page else { return }
        follow(learner.toggleFavourite(page.course))
    }

    /// `Space`: marks the selected lesson done and selects the next one, or marks a done
    /// lesson not done (and stays on it).
    func toggleSelectedLesson() {
        guard let page, page.syllabus.lessons.indices.contains(selectedLesson), isEnrolled else { return }
        let index = selectedLesson
        let done = !isDone(index)
        if done, index + 1 < page.syllabus.lessons.count { selectedLesson = index + 1 }
        let save = learner.setLesson(index + 1, page.syllabus.lessons[index].title, page.course, done)
        tasks.run { [weak self] in
            await save.value
            // A mark that could not be saved is undone: the selection goes back to it (the
            // first such of a burst), so the next Space is for the same lesson.
            guard let self, self.isDone(index) != done, self.selectedLesson > index else { return }
            self.selectedLesson = index
        }
    }

    /// Waits for a save among the page's tasks, so `settle()` covers it.
    private func follow(_ save: Task<Void, Never>) {
        tasks.run { await save.value }
    }

    func selectLesson(by delta: Int) {
        guard let count = page?.syllabus.lessons.count, count > 0 else { return }
        selectedLesson = min(max(0, selectedLesson + delta), count - 1)
    }

    func scroll(to offset: Int) {
        scrollOffset = max(0, offset)
    }

}
