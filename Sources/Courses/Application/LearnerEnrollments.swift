import Foundation
import Observation
import Presentation
import SharedKernel

/// The learner's enrollments as every screen shows them: loaded once, changed at once when
/// the learner acts (marked as saving), then confirmed by the store or undone with the
/// reason. The one owner of this fact: My courses, the catalog's ✓ and `locked`, the course
/// page and the profile's count all read it. A course left is not enrolled (`e` offered, `u`
/// not), but one left after completing it stays completed: its dependants stay unlocked.
@Observable
@MainActor
final class LearnerEnrollments {
    /// A change shown before the store confirmed it.
    enum Pending: Hashable {
        case joining(EnrolledCourse)
        case leaving
        /// Lessons marked; the enrollment as it will be once every mark is saved.
        case lessons(Enrollment)
    }

    /// What the store confirmed, as loaded and as every save since answered (`.loaded([])`
    /// when there is none: the screens say what an empty list means). It holds the courses
    /// left after completing them too (`Enrollment.isListed`): history, which meets
    /// prerequisites and brings the progress back on joining again.
    var state: ViewState<[EnrolledCourse]> { list.state }
    /// `state`'s enrollments by course: a catalog row asks about its course on every frame.
    /// Before the whole list is loaded, those glimpsed (`glimpse`): the marks of the pages
    /// shown first.
    private(set) var confirmed: [CourseID: Enrollment] = [:]
    /// Until the list is loaded: the enrollments read for a few courses (`glimpse`).
    @ObservationIgnored private let glimpses: Glimpses<CourseID, EnrolledCourse>
    /// True while a loaded list is read again.
    var isRefreshing: Bool { list.isRefreshing }
    private(set) var pending: [CourseID: Pending] = [:] {
        didSet { arrange() }
    }
    /// Saves under way per course: the pending change goes when the last one answers.
    @ObservationIgnored private var inFlight: [CourseID: Int] = [:]
    @ObservationIgnored private let list: ConfirmedList<EnrolledCourse, AppError>
    @ObservationIgnored private let serial = KeyedSerialTasks<CourseID>()
    @ObservationIgnored private let learner: UserID
    @ObservationIgnored private let enrollments: any EnrollmentRepository
    @ObservationIgnored private let now: @Sendable () -> Date
    /// Where the outcome of a save is told: the shell's footer, whichever screen is in front.
    @ObservationIgnored private let report: @MainActor (StatusMessage) -> Void

    init(
        learner: UserID,
        enrollments: any EnrollmentRepository,
        now: @escaping @Sendable () -> Date = { Date() },
        report: @escaping @MainActor (StatusMessage) -> Void = { _ in }
    ) {
        self.learner = learner
        self.enrollments = enrollments
        self.now = now
        self.report = report
        list = ConfirmedList(
            read: { [enrollments] () async throws(AppError) in try await enrollments.enrolledCourses(userID: learner) },
            message: \.userMessage
        )
        glimpses = Glimpses(limit: CourseLimits.idsPerAsk, id: \.id) { [enrollments] ids in
            try await enrollments.enrolledCourses(userID: learner, among: ids)
        }
        // Set once `self` is whole: they answer from its saves.
        list.isSaving = { [weak self] in self?.inFlight.isEmpty == false }
        list.onChange = { [weak self] list in
            guard let self else { return }
            if self.isLoaded { self.confirmed = Self.indexed(list) }
            self.arrange()
        }
        glimpses.isOver = { [weak self] in self?.isLoaded ?? true }
        glimpses.onChange = { [weak self] glimpsed in self?.confirmed = Self.indexed(glimpsed) }
    }

    // MARK: - Reading

    /// The courses the learner holds a place in, as shown: confirmed, the most recently active
    /// first (`Enrollment.lastActiveAt`), with pending joins first and pending leaves gone.
    /// Kept, as `history` and `rows` are: arranged when the list or a save changes, not on
    /// each read (the header counts it on every frame).
    private(set) var courses: [EnrolledCourse] = []
    /// The courses the learner left after completing them, as shown: a completed course being
    /// left joins them at once, one being joined again leaves them.
    private(set) var history: [EnrolledCourse] = []
    /// My courses' rows: `courses`, then `history`.
    private(set) var rows = KeptList<EnrolledCourse>()

    private func arrange() {
        courses = Self.shownCourses(state.value ?? [], pending: pending)
        history = Self.shownHistory(state.value ?? [], pending: pending)
        rows = KeptList(courses + history)
    }

    private static func shownCourses(_ confirmed: [EnrolledCourse], pending: [CourseID: Pending]) -> [EnrolledCourse] {
        let placed = Set(confirmed.lazy.filter(\.enrollment.holdsPlace).map(\.id))
        var joining: [EnrolledCourse] = []
        for case (let id, .joining(let course)) in pending where !placed.contains(id) {
            joining.append(course)
        }
        joining.sort { $0.enrollment.enrolledAt > $1.enrollment.enrolledAt }
        var shown = joining
        for course in confirmed where course.enrollment.holdsPlace {
            switch pending[course.id] {
            case .leaving: continue
            case .lessons(let enrollment): shown.append(EnrolledCourse(course: course.course, enrollment: enrollment))
            case .joining, nil: shown.append(course)
            }
        }
        // A lesson being marked moves its course up at once, as the store will (the confirmed
        // list is in order; only marks under way are not).
        if pending.values.contains(where: { if case .lessons = $0 { true } else { false } }) {
            let joined = joining.count
            shown[joined...].sort { Self.isMoreRecent($0, than: $1) }
        }
        return shown
    }

    private static func shownHistory(_ confirmed: [EnrolledCourse], pending: [CourseID: Pending]) -> [EnrolledCourse] {
        confirmed.compactMap { course in
            switch pending[course.id] {
            case .joining: return nil
            case .leaving:
                let left = LessonRules.leave(course.enrollment)
                return left.isListed ? EnrolledCourse(course: course.course, enrollment: left) : nil
            case .lessons, nil: return course.enrollment.holdsPlace ? nil : course
            }
        }
    }

    /// The enrollment that holds a place in the course, as shown.
    func enrollment(for id: CourseID) -> Enrollment? {
        switch pending[id] {
        case .leaving: return nil
        case .joining(let course): return course.enrollment
        case .lessons(let enrollment): return enrollment
        case nil: return confirmed[id].flatMap { $0.holdsPlace ? $0 : nil }
        }
    }

    func isSaving(_ id: CourseID) -> Bool { pending[id] != nil }

    /// When the learner completed the course, if they ever did, as shown: also after leaving
    /// it, or marking one of its lessons not done since (a completion is history).
    func completion(of id: CourseID) -> Date? {
        switch pending[id] {
        case .joining(let course): return course.enrollment.completedAt
        case .lessons(let enrollment): return enrollment.completedAt
        case .leaving, nil: return confirmed[id]?.completedAt
        }
    }

    /// Whether the learner completed the course once: a prerequisite is met by that.
    func hasCompleted(_ id: CourseID) -> Bool {
        completion(of: id) != nil
    }

    var isLoaded: Bool { state.value != nil }

    // MARK: - Loading

    /// Loads the first time and after a failure (the loading state shows); later, reads
    /// again silently.
    func appear() async { await list.appear() }

    func load() async { await list.load() }

    /// Reads again with the list on screen. A save confirmed meanwhile makes the answer
    /// stale (it may not have seen the save): it is dropped, and what the saves said stays.
    func refresh() async { await list.refresh() }

    /// The store changed the learner's enrollment in `id` elsewhere (another terminal, another
    /// instance, the API): read afresh. Asked while a save is under way, it reads once the
    /// saves have answered, so the store's order decides what shows.
    func storeChanged(_ id: CourseID) async {
        guard isLoaded else { return await glimpses.readAgain(id) }
        let (enrollments, learner) = (self.enrollments, self.learner)
        await list.reread { () async throws(AppError) in
            try await enrollments.enrolledCourse(userID: learner, courseID: id)
        } place: { list, fresh in
            list.removeAll { $0.id == id }
            if let fresh { Self.place(fresh, in: &list) }
        }
    }

    /// Reads the enrollments in `ids` (a page's courses and their prerequisites) before the
    /// whole list is loaded, so their marks show without waiting for it. Nothing once it is
    /// loaded, nor for courses glimpsed before; a failure leaves them unknown.
    func glimpse(_ ids: [CourseID]) async {
        guard !isLoaded else { return }
        await glimpses.read(ids)
    }

    /// Reads again what shows, as the store has it now (after news may have been missed): the
    /// list once loaded (or one course of it); before, what was glimpsed (or one course), and
    /// the list itself after a failed load. A list never asked for stays unread: whoever needs
    /// it loads it.
    func readAgain(_ id: CourseID?) async {
        switch (id, isLoaded) {
        case (let id?, true): await storeChanged(id)
        case (let id?, false): await glimpses.readAgain(id)
        case (nil, true): await list.appear()
        case (nil, false):
            await glimpses.readAgain()
            if case .error = state { await list.appear() }
        }
    }

    private static func indexed(_ list: [EnrolledCourse]) -> [CourseID: Enrollment] {
        Dictionary(list.map { ($0.id, $0.enrollment) }, uniquingKeysWith: { first, _ in first })
    }

    /// Puts `course` where the store lists it: the most recently active first.
    private static func place(_ course: EnrolledCourse, in list: inout [EnrolledCourse]) {
        list.removeAll { $0.id == course.id }
        let after = list.firstIndex { Self.isMoreRecent(course, than: $0) }
        list.insert(course, at: after ?? list.endIndex)
    }

    /// The store's order: last active, then the newer enrollment.
    private static func isMoreRecent(_ a: EnrolledCourse, than b: EnrolledCourse) -> Bool {
        (a.enrollment.lastActiveAt, a.enrollment.id.rawValue) > (b.enrollment.lastActiveAt, b.enrollment.id.rawValue)
    }

    // MARK: - Saving
    //
    // Each change shows at once, before its method returns, so the next key acts on it; the
    // save runs in a task of its own (never cancelled by a screen leaving), and its outcome is
    // reported. The task is returned for whoever wants to wait for it.

    /// Enrolls in `course` (whose prerequisite, if any, is `prerequisite`): refused at once by
    /// the rules when they say no; else shown enrolled at once and saved.
    @discardableResult
    func enroll(_ course: Course, prerequisite: Course?) -> Task<Void, Never> {
        // Not known yet: the store decides.
        let required = prerequisite.map { (course: $0, completed: isLoaded || glimpses.knows($0.id) ? hasCompleted($0.id) : true) }
        if let refusal = EnrollmentRules.refusal(for: course, existing: enrollment(for: course.id), prerequisite: required) {
            report(.error(refusal.message))
            return Task {}
        }
        // A course left before comes back with its progress, as the store will bring it back.
        let provisional =
            confirmed[course.id].map { LessonRules.rejoin($0, lessonCount: course.lessonCount, at: now()) }
            ?? Enrollment(id: EnrollmentID(0), userID: learner, courseID: course.id, enrolledAt: now())
        let joining = EnrolledCourse(course: course, enrollment: provisional)
        return save(course.id, showing: .joining(joining)) { [enrollments, learner] () async throws(AppError) -> StatusMessage in
            let enrollment = try await enrollments.enroll(userID: learner, courseID: course.id)
            self.confirm(course.id) { list in Self.place(EnrolledCourse(course: course, enrollment: enrollment), in: &list) }
            return .success("Enrolled in \(course.title)")
        }
    }

    /// Leaves `course`: gone from the list at once (into the history if it was completed),
    /// back with the reason if the store says no. Its progress is kept (`LessonRules.leave`).
    @discardableResult
    func unenroll(_ course: Course) -> Task<Void, Never> {
        save(course.id, showing: .leaving) { [enrollments, learner] () async throws(AppError) -> StatusMessage in
            try await enrollments.unenroll(userID: learner, courseID: course.id)
            self.confirm(course.id) { list in
                guard let index = list.firstIndex(where: { $0.id == course.id }) else { return }
                let left = LessonRules.leave(list[index].enrollment)
                if left.isListed { list[index].enrollment = left } else { list.remove(at: index) }
            }
            return .success("Unenrolled from \(course.title)")
        }
    }

    /// Marks lesson `number` (from 1, titled `lesson`) done or not done: the ✓ and the
    /// progress move at once; the marks of one course are saved in the order made.
    @discardableResult
    func setLesson(_ number: Int, titled lesson: String, of course: Course, done: Bool) -> Task<Void, Never> {
        let current = enrollment(for: course.id)
        guard case .success(let marked) = LessonRules.mark(number, done: done, in: current, lessonCount: course.lessonCount, now: now())
        else {
            report(.error(AppError.notEnrolled(course.id).userMessage))
            return Task {}
        }
        let completes = marked.status == .completed && current?.status != .completed
        return save(course.id, showing: .lessons(marked)) { [enrollments, learner] () async throws(AppError) -> StatusMessage in
            let saved = try await enrollments.setLesson(number, done: done, userID: learner, courseID: course.id)
            self.confirm(course.id) { list in
                guard let index = list.firstIndex(where: { $0.id == course.id }) else { return }
                var marked = list[index]
                marked.enrollment = saved
                Self.place(marked, in: &list)
            }
            if completes && saved.status == .completed { return .success("Course completed: \(course.title)") }
            return .success(done ? "Lesson done: \(lesson)" : "Lesson not done: \(lesson)")
        }
    }

    /// Shows `change` now, runs `write` after the course's earlier saves, and keeps the change
    /// on screen until the last save of the course has answered; a failure undoes it.
    private func save(
        _ id: CourseID,
        showing change: Pending,
        _ write: @escaping @MainActor () async throws(AppError) -> StatusMessage
    ) -> Task<Void, Never> {
        pending[id] = change
        inFlight[id, default: 0] += 1
        return Task { @MainActor in
            let message = await serial.run(id) { () async -> StatusMessage in
                do throws(AppError) {
                    return try await write()
                } catch {
                    return .error(error.userMessage)
                }
            }
            inFlight[id, default: 1] -= 1
            if inFlight[id] == 0 {
                inFlight[id] = nil
                pending[id] = nil
            } else if message.kind == .error {
                // Later saves of this course are still running; what they confirm will show.
                pending[id] = nil
            }
            report(message)
            if inFlight.isEmpty { await list.savesSettled() }
        }
    }

    /// A save of `id` the store confirmed: applied to the list, or to what was glimpsed
    /// while the list is not loaded.
    private func confirm(_ id: CourseID, _ change: (inout [EnrolledCourse]) -> Void) {
        list.confirm(change)
        glimpses.confirm(id, change)
    }
}
