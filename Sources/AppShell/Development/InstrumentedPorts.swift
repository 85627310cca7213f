import Foundation
import Logging
import SharedKernel

/// What every data call goes through on its way to the store: the development conditions
/// first, then the call, and a failure logged with its technical cause (the screen only
/// says what the learner can act on).
struct Instrumentation: Sendable {
    var conditions: DevelopmentConditions
    var logger: Logger
    /// Remote mode: the server, so a connectivity failure names it.
    var server: String?
    /// What --latency waits on.
    var clock: ShellClock

    func call<T: Sendable>(_ name: @autoclosure () -> String, _ body: () async throws(AppError) -> T) async throws(AppError) -> T {
        do {
            try await conditions.beforeDataCall(on: clock)
            return try await body()
        } catch {
            log(error, in: name())
            if case .connectivity = error, let server { throw .unreachable(host: server) }
            throw error
        }
    }

    private func log(_ error: AppError, in call: String) {
        switch error {
        case .storage, .connectivity, .unreachable:
            logger.warning("\(call) failed", metadata: ["error": "\(error.technicalMessage)"])
        case .cancelled:
            break
        default:
            logger.debug("\(call) refused", metadata: ["error": "\(error.technicalMessage)"])
        }
    }
}

struct InstrumentedCourseRepository: CourseRepository {
    let base: any CourseRepository
    let instrumentation: Instrumentation

    func page(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError) -> [CatalogRow]
    {
        try await instrumentation.call("catalog page") { () async throws(AppError) in
            try await base.page(query, for: learner, at: position, limit: limit)
        }
    }

    func count(_ query: CatalogQuery, for learner: UserID?) async throws(AppError) -> CatalogCount {
        try await instrumentation.call("catalog count") { () async throws(AppError) in try await base.count(query, for: learner) }
    }

    func course(id: CourseID) async throws(AppError) -> Course {
        try await instrumentation.call("course \(id)") { () async throws(AppError) in try await base.course(id: id) }
    }

    func syllabus(of id: CourseID) async throws(AppError) -> Syllabus {
        try await instrumentation.call("syllabus \(id)") { () async throws(AppError) in try await base.syllabus(of: id) }
    }
}

struct InstrumentedEnrollmentRepository: EnrollmentRepository {
    let base: any EnrollmentRepository
    let instrumentation: Instrumentation

    func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        try await instrumentation.call("enroll \(courseID)") { () async throws(AppError) in
            try await base.enroll(userID: userID, courseID: courseID)
        }
    }

    func unenroll(userID: UserID, courseID: CourseID) async throws(AppError) {
        try await instrumentation.call("unenroll \(courseID)") { () async throws(AppError) in
            try await base.unenroll(userID: userID, courseID: courseID)
        }
    }

    func setLesson(_ number: Int, done: Bool, userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        try await instrumentation.call("lesson \(number) of \(courseID)") { () async throws(AppError) in
            try await base.setLesson(number, done: done, userID: userID, courseID: courseID)
        }
    }

    func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse] {
        try await instrumentation.call("my courses") { () async throws(AppError) in try await base.enrolledCourses(userID: userID) }
    }

    func enrolledCourse(userID: UserID, courseID: CourseID) async throws(AppError) -> EnrolledCourse? {
        try await instrumentation.call("enrollment in \(courseID)") { () async throws(AppError) in
            try await base.enrolledCourse(userID: userID, courseID: courseID)
        }
    }

    func enrolledCourses(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [EnrolledCourse] {
        try await instrumentation.call("enrollments among \(ids.count)") { () async throws(AppError) in
            try await base.enrolledCourses(userID: userID, among: ids)
        }
    }
}

struct InstrumentedFavouritesRepository: FavouritesRepository {
    let base: any FavouritesRepository
    let instrumentation: Instrumentation

    func setFavourite(_ isFavourite: Bool, userID: UserID, courseID: CourseID) async throws(AppError) {
        try await instrumentation.call("favourite \(courseID)") { () async throws(AppError) in
            try await base.setFavourite(isFavourite, userID: userID, courseID: courseID)
        }
    }

    func favourites(userID: UserID) async throws(AppError) -> [Course] {
        try await instrumentation.call("favourites") { () async throws(AppError) in try await base.favourites(userID: userID) }
    }

    func favourite(userID: UserID, courseID: CourseID) async throws(AppError) -> Course? {
        try await instrumentation.call("favourite \(courseID)") { () async throws(AppError) in
            try await base.favourite(userID: userID, courseID: courseID)
        }
    }

    func favourites(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [Course] {
        try await instrumentation.call("favourites among \(ids.count)") { () async throws(AppError) in
            try await base.favourites(userID: userID, among: ids)
        }
    }
}

struct InstrumentedProfileRepository: ProfileRepository {
    let base: any ProfileRepository
    let instrumentation: Instrumentation

    func user(id: UserID) async throws(AppError) -> User {
        try await instrumentation.call("profile") { () async throws(AppError) in try await base.user(id: id) }
    }

    func updateName(userID: UserID, to name: String) async throws(AppError) -> User {
        try await instrumentation.call("rename") { () async throws(AppError) in try await base.updateName(userID: userID, to: name) }
    }
}

struct InstrumentedSessionRepository: SessionRepository {
    let base: any SessionRepository
    let instrumentation: Instrumentation

    func restoreSession() async throws(AppError) -> User? {
        try await instrumentation.call("restore session") { () async throws(AppError) in try await base.restoreSession() }
    }

    func signIn(email: String, password: String) async throws(AppError) -> User {
        try await instrumentation.call("sign in") { () async throws(AppError) in try await base.signIn(email: email, password: password) }
    }

    func createAccount(name: String, email: String, password: String) async throws(AppError) -> User {
        try await instrumentation.call("create account") { () async throws(AppError) in
            try await base.createAccount(name: name, email: email, password: password)
        }
    }

    func signOut(userID: UserID) async throws(AppError) {
        try await instrumentation.call("sign out") { () async throws(AppError) in try await base.signOut(userID: userID) }
    }
}

struct InstrumentedLearningRepository: LearningRepository {
    let base: any LearningRepository
    let instrumentation: Instrumentation

    func lessonContent(courseID: CourseID, lesson: Int) async throws(AppError) -> LessonContent {
        try await instrumentation.call("lesson \(lesson) of \(courseID)") { () async throws(AppError) in
            try await base.lessonContent(courseID: courseID, lesson: lesson)
        }
    }

    func answers(userID: UserID, courseID: CourseID) async throws(AppError) -> [Answer] {
        try await instrumentation.call("answers in \(courseID)") { () async throws(AppError) in
            try await base.answers(userID: userID, courseID: courseID)
        }
    }

    func cards(userID: UserID, courseID: CourseID) async throws(AppError) -> [CourseCard] {
        try await instrumentation.call("cards in \(courseID)") { () async throws(AppError) in
            try await base.cards(userID: userID, courseID: courseID)
        }
    }

    func answer(_ chosen: Set<Int>, to question: QuestionRef, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> Answer
    {
        try await instrumentation.call("answer \(question.courseID) \(question.lesson).\(question.question)") { () async throws(AppError) in
            try await base.answer(chosen, to: question, userID: userID, at: time, settings: settings)
        }
    }

    func reviewDeck(userID: UserID, at time: StudyTime, limit: Int, settings: ReviewSettings) async throws(AppError) -> ReviewDeck {
        try await instrumentation.call("review deck") { () async throws(AppError) in
            try await base.reviewDeck(userID: userID, at: time, limit: limit, settings: settings)
        }
    }

    func review(_ question: QuestionRef, grade: ReviewGrade, userID: UserID, at time: StudyTime, settings: ReviewSettings)
        async throws(AppError) -> CardSchedule
    {
        try await instrumentation.call("review \(question.courseID) \(question.lesson).\(question.question)") { () async throws(AppError) in
            try await base.review(question, grade: grade, userID: userID, at: time, settings: settings)
        }
    }

    func undoReview(_ question: QuestionRef, reviewedAt: Date, userID: UserID) async throws(AppError) -> CardSchedule {
        try await instrumentation.call("undo \(question.courseID) \(question.lesson).\(question.question)") { () async throws(AppError) in
            try await base.undoReview(question, reviewedAt: reviewedAt, userID: userID)
        }
    }

    func memory(userID: UserID, at time: StudyTime) async throws(AppError) -> MemoryPicture {
        try await instrumentation.call("memory") { () async throws(AppError) in
            try await base.memory(userID: userID, at: time)
        }
    }

    func habit(userID: UserID, on day: LearnerDay, secondsFromGMT: Int) async throws(AppError) -> LearningHabit {
        try await instrumentation.call("habit") { () async throws(AppError) in
            try await base.habit(userID: userID, on: day, secondsFromGMT: secondsFromGMT)
        }
    }
}

extension AppPorts {
    /// Every port behind the development conditions and the error log. Signing in and out
    /// keep working with --offline (only its latency applies), so the catalog's error
    /// states can be reached and a learner can always sign out.
    func instrumented(conditions: DevelopmentConditions, logger: Logger, server: String? = nil, clock: ShellClock = ShellClock())
        -> AppPorts
    {
        let instrumentation = Instrumentation(conditions: conditions, logger: logger, server: server, clock: clock)
        return AppPorts(
            courses: InstrumentedCourseRepository(base: courses, instrumentation: instrumentation),
            enrollments: InstrumentedEnrollmentRepository(base: enrollments, instrumentation: instrumentation),
            favourites: InstrumentedFavouritesRepository(base: favourites, instrumentation: instrumentation),
            profiles: InstrumentedProfileRepository(base: profiles, instrumentation: instrumentation),
            sessions: InstrumentedSessionRepository(
                base: sessions,
                instrumentation: Instrumentation(conditions: conditions.latencyOnly, logger: logger, server: server, clock: clock)
            ),
            learning: InstrumentedLearningRepository(base: learning, instrumentation: instrumentation),
            // Offline, nothing can be heard from the store either.
            changes: conditions.offline ? nil : changes,
            server: server ?? self.server,
            calendar: calendar
        )
    }
}
