import Observation
import Presentation
import SharedKernel
import TerminalUI

/// What a course's page shows besides the learner's marks: the course, its lessons, and its
/// prerequisite when it has one that still exists.
struct CoursePage: Hashable, Sendable {
    var syllabus: Syllabus
    var prerequisite: Course?
    /// Whether the learner held a seat when the page was read, so the seats shown follow
    /// their own enrolling and leaving at once, without reading the course again.
    var enrolledWhenRead = false

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
    @ObservationIgnored let tasks = OwnedTasks()
    @ObservationIgnored private let courses: any CourseRepository

    init(courseID: CourseID, courses: any CourseRepository, learner: CatalogLearner) {
        self.courseID = courseID
        self.courses = courses
        self.learner = learner
    }

    var page: CoursePage? { state.value }

    /// The learner's marks on this course, as shown now.
    var marks: CourseMarks? { page.map { learner.marks($0.course) } }

    var isEnrolled: Bool { marks?.isEnrolled ?? false }

    /// The course as shown: its seat count moved by the learner's own enrolling or leaving
    /// since the page was read.
    var shownCourse: Course? {
        guard var course = page?.course, let page else { return nil }
        switch (page.enrolledWhenRead, isEnrolled) {
        case (false, true): course.enrolledCount = Saturating.add(course.enrolledCount, 1)
        case (true, false): course.enrolledCount = max(0, Saturating.subtract(course.enrolledCount, 1))
        default: break
        }
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

    /// Loads the course, its lessons and its prerequisite; ignored while a load is in flight.
    /// The first lesson not done is selected on arrival.
    func load() async {
        guard !state.isLoading else { return }
        state = .loading
        await learner.prepare()
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
            let marks = learner.marks(syllabus.course)
            let page = CoursePage(syllabus: syllabus, prerequisite: prerequisite, enrolledWhenRead: marks.isEnrolled)
            state = .loaded(page)
            let done = marks.enrollment?.lessonsDone ?? []
            selectedLesson = (0..<syllabus.lessons.count).first { !done.contains($0 + 1) } ?? 0
        } catch {
            state = .error(message: error.userMessage)
        }
    }

    // Each action changes what the page shows before it returns, so the next key acts on
    // the changed page; the save runs on, and its outcome is reported.

    /// `e`: shown enrolled at once (or refused, with the reason, when the rules say no).
    func enroll() {
        guard let page else { return }
        follow(learner.enroll(page.course, page.prerequisite))
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
        follow(learner.unenroll(page.course))
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
