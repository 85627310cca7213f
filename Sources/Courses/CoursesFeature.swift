import Foundation
import Presentation
import SharedKernel
import TerminalUI

/// My courses, enrollment and lesson progress of one signed-in learner: the feature's one
/// entry point. Give it the learner and the port, get tab 2's screen; the shell routes what
/// other features need (marks, enroll, lessons) through the methods below.
@MainActor
public final class CoursesFeature {
    let model: LearnerEnrollments
    private let learner: UserID
    private let courses: (any CourseRepository)?
    private let learning: LessonAccess?
    private let report: @MainActor @Sendable (StatusMessage) -> Void
    private let answersChanged = Notices<CourseID?>()

    /// `report` is told the outcome of every save (the shell shows it in the footer).
    /// `learning`: where lessons' text and answers come from; `nil` where the store has none.
    public init(
        learner: UserID, enrollments: any EnrollmentRepository, courses: (any CourseRepository)? = nil, learning: LessonAccess? = nil,
        report: @escaping @MainActor @Sendable (StatusMessage) -> Void
    ) {
        model = LearnerEnrollments(learner: learner, enrollments: enrollments, report: report)
        self.learner = learner
        self.courses = courses
        self.learning = learning
        self.report = report
    }

    /// A lesson in the reader. `onOpenLesson` opens another lesson of the course in its
    /// place (`n`, `p`, Space at the end); `onBack` goes back to where it was opened from.
    public func makeReaderScreen(
        courseID: CourseID, lesson: Int, onOpenLesson: @escaping @MainActor (Int) -> Void, onBack: @escaping @MainActor () -> Void
    ) -> any Screen {
        let (learner, learning, courses) = (self.learner, self.learning, self.courses)
        let ports = ReaderPorts(
            syllabus: { id throws(AppError) in
                guard let courses else { throw .storage(.reading, detail: "no course port given") }
                return try await courses.syllabus(of: id)
            },
            content: { id, number throws(AppError) in
                guard let learning else { throw .storage(.reading, detail: "this store serves no lessons' text yet") }
                return try await learning.repository.lessonContent(courseID: id, lesson: number)
            },
            answers: { id throws(AppError) in
                guard let learning else { return [] }
                return try await learning.repository.answers(userID: learner, courseID: id)
            },
            answer: { chosen, ref throws(AppError) in
                guard let learning else { throw .storage(.saving, detail: "this store keeps no answers yet") }
                let (time, settings) = await (learning.time(), learning.settings())
                return try await learning.repository.answer(chosen, to: ref, userID: learner, at: time, settings: settings)
            },
            today: { (learning?.time() ?? StudyTime(now: Date(), secondsFromGMT: TimeZone.current.secondsFromGMT())).day },
            report: report)
        return LessonReaderScreen(
            viewModel: LessonReaderViewModel(
                courseID: courseID, number: lesson, ports: ports, progress: model, answersChanged: answersChanged),
            onOpenLesson: onOpenLesson, onBack: onBack)
    }

    /// Every key of the lesson reader, for `tui --help`.
    public nonisolated static var readerKeys: [KeyDeclaration] { LessonReaderScreen.declaredKeys }

    /// Tab 2's root. `onCourseSelected` is called on `o`, and on `Enter` on a course not under
    /// way; `onOpenLesson` on `Enter` on one under way, with its first lesson not done.
    public func makeMyCoursesScreen(
        onCourseSelected: @escaping @MainActor (CourseID) -> Void,
        onOpenLesson: @escaping @MainActor (CourseID, Int) -> Void = { _, _ in }
    ) -> any Screen {
        MyCoursesScreen(viewModel: MyCoursesViewModel(model: model), onCourseSelected: onCourseSelected, onOpenLesson: onOpenLesson)
    }

    /// Every key of tab 2, for `tui --help`.
    public nonisolated static var keys: [KeyDeclaration] { MyCoursesScreen.declaredKeys }

    // MARK: - For the other features

    /// Loads the learner's enrollments once (later calls return at once).
    public func prepare() async {
        if case .idle = model.state { await model.load() }
    }

    /// Whether the whole list was never asked for: `prepare` would load it.
    public var isUnread: Bool {
        if case .idle = model.state { true } else { false }
    }

    /// Reads the learner's enrollments in `ids` (a page's courses and their prerequisites)
    /// while the whole list is not loaded yet; see `LearnerEnrollments.glimpse`.
    public func glimpse(_ ids: [CourseID]) async {
        await model.glimpse(ids)
    }

    /// Reads the learner's enrollments again (the store may have changed under them: a session the
    /// server ended and the learner began again); see `LearnerEnrollments.readAgain`.
    public func readAgain() async {
        await readAgain(nil)
    }

    /// Reads the learner's enrollment in one course again (a course being opened), or all of
    /// them (nil): what shows, the whole list once it is loaded, the glimpsed marks before.
    public func readAgain(_ id: CourseID?) async {
        await model.readAgain(id)
    }

    /// The learner's answers in the course changed (nil: maybe in any): a lesson of it in the
    /// reader reads its answers again.
    public func answersChanged(_ id: CourseID?) {
        answersChanged.post(id)
    }

    /// The store changed the learner's enrollment in the course elsewhere: it is read afresh.
    public func storeChanged(_ id: CourseID) async {
        await model.storeChanged(id)
    }

    /// The enrollment that holds a place in the course, as shown (a pending one included).
    public func enrollment(for id: CourseID) -> Enrollment? { model.enrollment(for: id) }
    public func isSaving(_ id: CourseID) -> Bool { model.isSaving(id) }
    /// Whether the learner completed the course once (also if they left it since): a
    /// prerequisite is met by that.
    public func hasCompleted(_ id: CourseID) -> Bool { model.hasCompleted(id) }
    /// When the learner completed the course, if they ever did.
    public func completion(of id: CourseID) -> Date? { model.completion(of: id) }
    /// How many courses the learner holds a place in; `nil` when they could not be read.
    public var enrolledCount: Int? { model.isLoaded ? model.courses.count : nil }

    /// Shows the enrollment at once and saves it; see `LearnerEnrollments`.
    @discardableResult
    public func enroll(_ course: Course, prerequisite: Course?) -> Task<Void, Never> {
        model.enroll(course, prerequisite: prerequisite)
    }

    @discardableResult
    public func unenroll(_ course: Course) -> Task<Void, Never> {
        model.unenroll(course)
    }

    @discardableResult
    public func setLesson(_ number: Int, titled lesson: String, of course: Course, done: Bool) -> Task<Void, Never> {
        model.setLesson(number, titled: lesson, of: course, done: done)
    }
}
