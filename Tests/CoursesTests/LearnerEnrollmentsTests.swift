import Foundation
import Presentation
import SharedKernel
import TerminalUI
import TestSupport
import Testing

@testable import Courses

@Suite("The learner's enrollments")
@MainActor
final class LearnerEnrollmentsTests {
    /// What `makeSUT` made: each must be gone once the test is.
    private let leaks = LeakTracker()

    deinit {
        #expect(leaks.alive == [], "kept alive after the test")
    }

    nonisolated static let open = Course.fixture(id: "open", title: "Open Course", capacity: 40, enrolledCount: 12, lessonCount: 3)
    nonisolated static let full = Course.fixture(id: "full", title: "Full Course", capacity: 5, enrolledCount: 5)
    nonisolated static let closed = Course.fixture(id: "closed", title: "Closed Course", isActive: false)
    nonisolated static let base = Course.fixture(id: "base", title: "Base Course")
    nonisolated static let next = Course.fixture(id: "next", title: "Next Course", prerequisiteID: "base")
    nonisolated static let completed = Date(timeIntervalSince1970: 1_767_225_600)

    @Test(
        "a refusal the rules know is said at once and nothing is written",
        arguments: [
            (closed, nil, "Closed Course is not open for enrollment"),
            (full, nil, "Full Course is full"),
            (next, base, "Complete Base Course first"),
        ] as [(Course, Course?, String)])
    func refusedAtOnce(course: Course, prerequisite: Course?, message: String) async {
        let (sut, store, reports) = await makeSUT()

        await sut.enroll(course, prerequisite: prerequisite).value

        #expect(reports.messages.map(\.kind) == [.error])
        #expect(reports.messages.map(\.text.english) == [message])
        #expect(await store.writes == [])
        #expect(sut.enrollment(for: course.id) == nil)
    }

    @Test("enrolling shows the course at once, marked as saving, then confirmed")
    func enrollShowsAtOnce() async {
        let gate = Gate()
        let (sut, store, reports) = await makeSUT()
        await store.setGate(gate)

        let enroll = sut.enroll(Self.open, prerequisite: nil)
        #expect(sut.courses.map(\.id) == ["open"], "shown before enroll returned")
        #expect(sut.isSaving("open"))
        #expect(sut.enrollment(for: "open") != nil)
        await gate.waitForArrivals(1)
        await gate.open()
        await enroll.value

        #expect(reports.messages == [.success("Enrolled in Open Course")])
        #expect(!sut.isSaving("open"))
        #expect(sut.courses.map(\.id) == ["open"])
        #expect(await store.storedEnrollment(User.demo.id, "open")?.status == .active)
    }

    @Test("a store that refuses (another learner took the seat) undoes the enrollment and says why")
    func enrollUndone() async {
        let (sut, store, reports) = await makeSUT()
        await store.addCourses([Course.fixture(id: "open", title: "Open Course", capacity: 40, enrolledCount: 40)])

        await sut.enroll(Self.open, prerequisite: nil).value

        #expect(reports.messages == [.error("Open Course is full")])
        #expect(sut.courses == [])
        #expect(!sut.isSaving("open"))
    }

    @Test("leaving takes the course off the list at once; a failure puts it back with the reason")
    func unenroll() async {
        let (sut, store, reports) = await makeSUT(enrolledIn: [Self.open])
        await store.setFailure(.storage(.saving, detail: "disk"))

        let failed = sut.unenroll(Self.open)
        #expect(sut.courses == [], "gone at once")
        await failed.value

        #expect(reports.messages == [.error("Something went wrong while saving your data.")])
        #expect(sut.courses.map(\.id) == ["open"])
        await store.setFailure(nil)
        await sut.unenroll(Self.open).value
        #expect(reports.messages.last == .success("Unenrolled from Open Course"))
        #expect(sut.courses == [])
    }

    @Test("marking lessons moves progress at once and completes the course with the last one")
    func lessons() async {
        let (sut, _, reports) = await makeSUT(enrolledIn: [Self.open])

        await sut.setLesson(1, titled: "One", of: Self.open, done: true).value
        await sut.setLesson(2, titled: "Two", of: Self.open, done: true).value
        await sut.setLesson(3, titled: "Three", of: Self.open, done: true).value

        #expect(
            reports.messages == [.success("Lesson done: One"), .success("Lesson done: Two"), .success("Course completed: Open Course")])
        #expect(sut.courses.first?.percent == 100)
        #expect(sut.hasCompleted("open"))
        await sut.setLesson(2, titled: "Two", of: Self.open, done: false).value
        #expect(reports.messages.last == .success("Lesson not done: Two"))
        #expect(sut.hasCompleted("open"), "a completion is history: the dependants stay open")
        #expect(sut.courses.first?.progress == .inProgress)
    }

    @Test("leaving keeps the lessons done: joining again brings them back, and nothing shows as history meanwhile")
    func leaveAndComeBack() async {
        let (sut, store, _) = await makeSUT()
        await store.addEnrollment(.fixture(courseID: "open", lessonsDone: [1, 2]))
        await sut.load()

        await sut.unenroll(Self.open).value
        let whileLeft = (sut.enrollment(for: "open"), sut.courses, sut.history)
        await sut.enroll(Self.open, prerequisite: nil).value

        #expect(whileLeft.0 == nil)
        #expect(whileLeft.1 == [] && whileLeft.2 == [])
        #expect(sut.enrollment(for: "open")?.lessonsDone == [1, 2])
        #expect(sut.courses.map(\.id) == ["open"])
    }

    @Test(
        "a completed course left is not enrolled (e joins, u does not), stays completed for its dependants, and shows as history at once"
    )
    func completedThenLeft() async {
        let gate = Gate()
        let (sut, store, reports) = await makeSUT()
        await store.addEnrollment(.fixture(courseID: "base", status: .completed, lessonsDone: [1], completedAt: Self.completed))
        await sut.load()
        await store.setGate(gate)

        let leaving = sut.unenroll(Self.base)
        let shownAtOnce = sut.history.map(\.enrollment.status)
        await gate.waitForArrivals(1)
        await gate.open()
        await leaving.value
        await sut.enroll(Self.next, prerequisite: Self.base).value

        #expect(shownAtOnce == [.dropped])
        #expect(sut.enrollment(for: "base") == nil)
        #expect(sut.hasCompleted("base"))
        #expect(sut.completion(of: "base") == Self.completed)
        #expect(sut.history.map(\.id) == ["base"])
        #expect(sut.courses.map(\.id) == ["next"])
        #expect(reports.messages == [.success("Unenrolled from Base Course"), .success("Enrolled in Next Course")])
    }

    @Test("joining a course left after completing it shows it completed at once, with its lessons")
    func completedComesBack() async {
        let gate = Gate()
        let (sut, store, _) = await makeSUT()
        await store.addEnrollment(.fixture(courseID: "base", status: .dropped, lessonsDone: [1], completedAt: Self.completed))
        await sut.load()
        await store.setGate(gate)

        let joining = sut.enroll(Self.base, prerequisite: nil)
        let shownAtOnce = sut.enrollment(for: "base")
        let historyAtOnce = sut.history
        await gate.waitForArrivals(1)
        await gate.open()
        await joining.value

        #expect(shownAtOnce?.status == .completed && shownAtOnce?.lessonsDone == [1])
        #expect(historyAtOnce == [])
        #expect(sut.enrollment(for: "base")?.status == .completed)
        #expect(sut.enrollment(for: "base")?.completedAt == Self.completed)
        #expect(sut.history == [])
    }

    @Test("quick marks of one course show at once and are saved in the order made")
    func quickMarks() async {
        let gate = Gate()
        let (sut, store, _) = await makeSUT(enrolledIn: [Self.open])
        await store.setGate(gate)

        let first = sut.setLesson(1, titled: "One", of: Self.open, done: true)
        let second = sut.setLesson(2, titled: "Two", of: Self.open, done: true)
        #expect(sut.enrollment(for: "open")?.lessonsDone == [1, 2])
        #expect(sut.isSaving("open"))
        await gate.waitForArrivals(1)
        await gate.open()
        _ = await (first.value, second.value)

        #expect(sut.enrollment(for: "open")?.lessonsDone == [1, 2])
        #expect(!sut.isSaving("open"))
        #expect(await store.writes == [.setLesson(1, done: true, User.demo.id, "open"), .setLesson(2, done: true, User.demo.id, "open")])
    }

    @Test("a refresh that a save overtook is dropped: the list never goes back to before the save")
    func staleRefresh() async {
        let (_, store, _) = await makeSUT()
        let reads = Gate()
        let sut = LearnerEnrollments(learner: User.demo.id, enrollments: GatedReads(base: store, gate: reads))
        await reads.open()
        await sut.load()
        await reads.close()

        let refresh = Task { await sut.refresh() }
        await reads.waitForArrivals(2)  // the refresh is reading the list as it was
        await sut.enroll(Self.open, prerequisite: nil).value
        await reads.open()
        await refresh.value

        #expect(sut.courses.map(\.id) == ["open"])
    }

    @Test("a change made elsewhere is read afresh, that course alone: another terminal's lessons and enrollment show, in the store's order")
    func storeChangedElsewhere() async {
        let (sut, store, _) = await makeSUT(enrolledIn: [Self.open])
        await store.addEnrollment(.fixture(id: 1, courseID: "open", lessonsDone: [1, 2]))
        await store.addEnrollment(.fixture(id: 2, courseID: "base", enrolledAt: Date(timeIntervalSince1970: 1_900_000_000)))
        let before = await store.messages.count

        await sut.storeChanged("open")
        await sut.storeChanged("base")

        #expect(sut.enrollment(for: "open")?.lessonsDone == [1, 2])
        #expect(sut.courses.map(\.id) == ["base", "open"], "most recently active first")
        #expect(
            Array(await store.messages.dropFirst(before)) == [.enrolledCourse(User.demo.id, "open"), .enrolledCourse(User.demo.id, "base")])
    }

    @Test("a lesson marked moves its course to the top at once, the most recently active first, and it stays there once saved")
    func lastActivityOrder() async {
        let gate = Gate()
        let (sut, store, _) = await makeSUT()
        await store.addEnrollment(.fixture(id: 1, courseID: "open", enrolledAt: Date(timeIntervalSince1970: 1_700_000_000)))
        await store.addEnrollment(.fixture(id: 2, courseID: "base", enrolledAt: Date(timeIntervalSince1970: 1_700_000_100)))
        await sut.load()
        #expect(sut.courses.map(\.id) == ["base", "open"], "the one joined last first")

        await store.setGate(gate)
        let mark = sut.setLesson(1, titled: "One", of: Self.open, done: true)
        #expect(sut.courses.map(\.id) == ["open", "base"], "at once, while it is saved")
        await gate.open()
        await mark.value
        #expect(sut.courses.map(\.id) == ["open", "base"])
        #expect(sut.state.value?.map(\.id) == ["open", "base"], "the confirmed list too, as the store orders it")
    }

    @Test("a course left elsewhere leaves the list when read afresh")
    func leftElsewhere() async {
        let (sut, store, _) = await makeSUT(enrolledIn: [Self.open])
        await store.addEnrollment(.fixture(id: 1, courseID: "open", status: .dropped))

        await sut.storeChanged("open")

        #expect(sut.courses == [])
        #expect(sut.enrollment(for: "open") == nil)
    }

    @Test("news that comes while this terminal saves is read once the save has answered, so the store orders them")
    func storeChangedDuringASave() async {
        let gate = Gate()
        let (sut, store, _) = await makeSUT(enrolledIn: [Self.open])
        await store.setGate(gate)
        let mark = sut.setLesson(1, titled: "One", of: Self.open, done: true)
        await gate.waitForArrivals(1)
        await store.addEnrollment(.fixture(id: 9, courseID: "base"))

        await sut.storeChanged("base")
        #expect(sut.enrollment(for: "base") == nil, "not read while the save is under way")
        await gate.open()
        await mark.value

        #expect(sut.enrollment(for: "base") != nil)
        #expect(sut.enrollment(for: "open")?.lessonsDone == [1])
    }

    // MARK: - A page's glimpse, before the whole list

    @Test("before the list is loaded, a page's glimpse reads only its courses: their marks show; a course glimpsed is not read again")
    func glimpseBeforeTheList() async {
        let (sut, store) = await makeUnloaded()
        await store.addEnrollment(.fixture(id: 1, courseID: "open", lessonsDone: [1]))
        await store.addEnrollment(.fixture(id: 2, courseID: "base", status: .dropped, completedAt: Self.completed))

        await sut.glimpse(["open", "next", "base"])
        await sut.glimpse(["open", "full"])

        #expect(sut.enrollment(for: "open")?.lessonsDone == [1])
        #expect(sut.hasCompleted("base"), "history counts: a prerequisite met")
        #expect(sut.enrollment(for: "base") == nil && sut.enrollment(for: "next") == nil)
        #expect(!sut.isLoaded)
        #expect(await Self.asked(store) == [["open", "next", "base"], ["full"]])

        await sut.load()
        await sut.glimpse(["closed"])
        #expect(await Self.asked(store).count == 2, "nothing glimpsed once the list is loaded")
        #expect(sut.courses.map(\.id) == ["open"])
    }

    @Test("an enrollment saved before the list is loaded shows, and a glimpse that started before it was saved does not undo it")
    func saveBeforeTheList() async {
        let (sut, store) = await makeUnloaded()
        let answers = Gate()
        let slow = GatedReads(base: store, gate: answers, hold: .glimpseAnswers)
        let model = LearnerEnrollments(learner: User.demo.id, enrollments: slow)
        leaks.track(model)
        _ = sut

        let glimpse = Task { await model.glimpse(["open"]) }
        await answers.waitForArrivals(1)  // read: not enrolled; the answer waits
        await model.enroll(Self.open, prerequisite: nil).value
        #expect(model.enrollment(for: "open") != nil)
        await answers.open()
        await glimpse.value

        #expect(model.enrollment(for: "open") != nil, "the glimpse read before the save says nothing about it")
        #expect(!model.isSaving("open"))
    }

    @Test("news of a course glimpsed, before the list is loaded, reads that course again")
    func newsBeforeTheList() async {
        let (sut, store) = await makeUnloaded()
        await sut.glimpse(["open"])
        #expect(sut.enrollment(for: "open") == nil)
        await store.addEnrollment(.fixture(id: 1, courseID: "open", lessonsDone: [2]))

        await sut.storeChanged("open")
        await sut.storeChanged("full")  // never shown: nothing to read

        #expect(sut.enrollment(for: "open")?.lessonsDone == [2])
        #expect(await Self.asked(store) == [["open"], ["open"]])
        #expect(!sut.isLoaded)
    }

    @Test(
        "read again before the list is loaded (news missed): what was glimpsed is read again, not the whole list; after a failed load, the list too"
    )
    func readAgainBeforeTheList() async {
        let (sut, store) = await makeUnloaded()
        await sut.glimpse(["open", "base"])
        await store.addEnrollment(.fixture(id: 1, courseID: "open"))

        await sut.readAgain(nil)
        #expect(sut.enrollment(for: "open") != nil)
        #expect(await Self.asked(store) == [["open", "base"], ["open", "base"]])
        #expect(!(await store.messages.contains(.enrolledCourses(User.demo.id))), "the whole list never asked for")

        await store.setFailure(.connectivity, only: { $0 == .enrolledCourses(User.demo.id) })
        await sut.load()
        await store.setFailure(nil)
        await sut.readAgain(nil)
        #expect(sut.courses.map(\.id) == ["open"], "a failed load is tried again")
    }

    /// The ids of each glimpse the store was asked for, as sets (their order is the model's).
    private static func asked(_ store: InMemoryStore) async -> [Set<CourseID>] {
        await store.messages.compactMap { message in
            guard case .enrolledCoursesAmong(_, let ids) = message else { return nil }
            return Set(ids)
        }
    }

    private func makeUnloaded() async -> (LearnerEnrollments, InMemoryStore) {
        let store = InMemoryStore(courses: [Self.open, Self.full, Self.closed, Self.base, Self.next])
        await store.setLessons(
            [Lesson(title: "One", minutes: 10), Lesson(title: "Two", minutes: 10), Lesson(title: "Three", minutes: 10)], of: "open")
        let sut = LearnerEnrollments(learner: User.demo.id, enrollments: store)
        leaks.track(sut)
        return (sut, store)
    }

    // MARK: - Helpers

    private func makeSUT(enrolledIn courses: [Course] = []) async -> (LearnerEnrollments, InMemoryStore, Reports) {
        let store = InMemoryStore(courses: [Self.open, Self.full, Self.closed, Self.base, Self.next])
        await store.setLessons(
            [Lesson(title: "One", minutes: 10), Lesson(title: "Two", minutes: 10), Lesson(title: "Three", minutes: 10)], of: "open")
        for (index, course) in courses.enumerated() {
            await store.addEnrollment(.fixture(id: Int64(index + 1), courseID: course.id))
        }
        let reports = Reports()
        let sut = LearnerEnrollments(learner: User.demo.id, enrollments: store, report: { reports.messages.append($0) })
        leaks.track(sut)
        await sut.load()
        return (sut, store, reports)
    }
}

/// What a model reported, in order.
@MainActor
final class Reports {
    var messages: [StatusMessage] = []
}

/// Enrollments whose reads wait at a gate, while writes go straight through: every read
/// before it is made, or only a glimpse's answer, read at once and given when the gate opens.
struct GatedReads: EnrollmentRepository {
    enum Hold { case everyRead, glimpseAnswers }
    let base: InMemoryStore
    let gate: Gate
    var hold = Hold.everyRead

    func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        try await base.enroll(userID: userID, courseID: courseID)
    }

    func unenroll(userID: UserID, courseID: CourseID) async throws(AppError) {
        try await base.unenroll(userID: userID, courseID: courseID)
    }

    func setLesson(_ number: Int, done: Bool, userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        try await base.setLesson(number, done: done, userID: userID, courseID: courseID)
    }

    func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse] {
        if hold == .everyRead { await gate.wait() }
        return try await base.enrolledCourses(userID: userID)
    }

    func enrolledCourse(userID: UserID, courseID: CourseID) async throws(AppError) -> EnrolledCourse? {
        if hold == .everyRead { await gate.wait() }
        return try await base.enrolledCourse(userID: userID, courseID: courseID)
    }

    func enrolledCourses(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [EnrolledCourse] {
        if hold == .everyRead { await gate.wait() }
        let found = try await base.enrolledCourses(userID: userID, among: ids)
        if hold == .glimpseAnswers { await gate.wait() }
        return found
    }
}
