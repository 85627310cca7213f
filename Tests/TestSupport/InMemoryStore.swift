import Foundation
import SharedKernel

/// Every port in memory, applying the same SharedKernel rules as the real stores (the
/// contract suites hold it to that), and recording every call so a test can state exactly
/// what was asked. Calls can be held at a gate, or made to fail.
public actor InMemoryStore: CourseRepository, EnrollmentRepository, FavouritesRepository, ProfileRepository, SessionRepository,
    AccountRepository, AccountStore, RefreshTokenRepository, ChangeLog, LearningRepository, OperationRepository
{
    public enum Message: Hashable, Sendable {
        case page(String, CatalogPosition, Int)
        case count(String)
        case course(CourseID)
        case syllabus(CourseID)
        case enroll(UserID, CourseID)
        case unenroll(UserID, CourseID)
        case setLesson(Int, done: Bool, UserID, CourseID)
        case enrolledCourses(UserID)
        case enrolledCourse(UserID, CourseID)
        case enrolledCoursesAmong(UserID, [CourseID])
        case setFavourite(Bool, UserID, CourseID)
        case favourites(UserID)
        case favouritesAmong(UserID, [CourseID])
        case favourite(UserID, CourseID)
        case user(UserID)
        case updateName(UserID, String)
        case restoreSession
        case signIn(String)
        case createAccount(String)
        case signOut(UserID)
        case lessonContent(CourseID, Int)
        case answers(UserID, CourseID)
        case cards(UserID, CourseID)
        case answer(Set<Int>, QuestionRef, UserID, StudyTime)
        case reviewDeck(UserID, StudyTime)
        case review(QuestionRef, ReviewGrade, UserID, StudyTime)
        case habit(UserID, LearnerDay)
        case undoReview(QuestionRef, Date, UserID)
        case memory(UserID, StudyTime)
        case apply(SyncOperation, UserID)

        /// Whether the call writes.
        public var isWrite: Bool {
            switch self {
            case .enroll, .unenroll, .setLesson, .setFavourite, .updateName, .createAccount, .signOut, .answer, .review, .undoReview,
                .apply:
                true
            default: false
            }
        }
    }

    public private(set) var messages: [Message] = []
    public var writes: [Message] { messages.filter(\.isWrite) }

    var catalog: [CourseID: Course] {
        didSet { index = nil }
    }
    /// When each course was first added (`newest` orders by it).
    private var added: [CourseID: Int64] = [:] {
        didSet { index = nil }
    }
    /// The catalog in every order and its words, built once for as long as the catalog stays
    /// the same: building it for each page cost a test of a 1,200-course catalog most of its
    /// time.
    private var index: BruteForceIndex?

    private func catalogIndex() -> BruteForceIndex {
        if let index { return index }
        let built = BruteForceIndex(Array(catalog.values), added: added)
        index = built
        return built
    }
    private var lessons: [CourseID: [Lesson]]
    var users: [UserID: (user: User, password: String)]
    var enrollments: [Enrollment] = []
    var favourites: [UserID: Set<CourseID>] = [:]
    var storedSession: UserID?
    var refreshTokens: [String: (record: RefreshTokenRecord, used: Bool, revoked: Bool)] = [:]
    var nextID: Int64 = 100
    /// The changes noted, oldest first, as a store's `change_event`; those through
    /// `forgottenThrough` were forgotten.
    private var changeEvents: [ChangeEvent] = []
    private var forgottenThrough: Int64 = 0
    private var lastChangeID: Int64 = 0
    private var failure: AppError?
    /// Answers with the schedule of the card each started and the day it was given.
    var storedAnswers: [UserID: [QuestionRef: (answer: Answer, card: CardSchedule, day: LearnerDay)]] = [:]
    var reviewDays: [UserID: Set<LearnerDay>] = [:]
    /// Each learner's grades, oldest first, with the card before each.
    public internal(set) var reviewLog: [UserID: [ReviewLogEntry]] = [:]
    /// When lessons were marked done, for the streak.
    var lessonDoneTimes: [UserID: [Date]] = [:]
    /// Operations applied: fingerprint and outcome, by learner and id.
    var appliedOperations: [UserID: [OperationID: (fingerprint: String, outcome: OperationOutcome)]] = [:]
    /// The time of each latest-wins item (`MergeRules.item`), by learner.
    var mergeTimes: [UserID: [String: HybridTime]] = [:]
    /// When each answer was given (answers arranged without one came first).
    var answerTimes: [UserID: [QuestionRef: Date]] = [:]
    private var failOnly: ((Message) -> Bool)?
    private var gate: Gate?
    private var gateOnly: ((Message) -> Bool)?
    let now: @Sendable () -> Date

    public init(
        courses: [Course] = [],
        lessons: [CourseID: [Lesson]] = [:],
        users: [(User, password: String)] = [(.demo, "edugo-demo")],
        signedIn: UserID? = nil,
        now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }
    ) {
        self.catalog = Dictionary(courses.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        for course in courses where added[course.id] == nil { added[course.id] = Int64(added.count + 1) }
        self.lessons = lessons
        self.users = Dictionary(users.map { ($0.0.id, ($0.0, $0.password)) }, uniquingKeysWith: { $1 })
        self.storedSession = signedIn
        self.now = now
        for (id, list) in lessons { self.catalog[id]?.lessonCount = list.count }
    }

    // MARK: - Arranging

    /// Makes calls fail with `error` (all of them, or those `only` picks) until set to nil.
    public func setFailure(_ error: AppError?, only: (@Sendable (Message) -> Bool)? = nil) {
        failure = error
        failOnly = only
    }

    /// Holds later calls (all of them, or those `only` picks) at `gate` until the test opens it.
    public func setGate(_ gate: Gate?, only: (@Sendable (Message) -> Bool)? = nil) {
        self.gate = gate
        gateOnly = only
    }

    public func addCourses(_ courses: [Course]) {
        for course in courses {
            catalog[course.id] = course
            if added[course.id] == nil { added[course.id] = Int64(added.count + 1) }
        }
    }

    /// An import, as the stores note it: the courses added or rewritten, one change.
    public func importCourses(_ courses: [Course]) {
        addCourses(courses)
        if !courses.isEmpty { note(.catalog) }
    }

    /// Forgets the changes through `id`, as a store does with old ones.
    public func forgetChanges(through id: Int64) {
        forgottenThrough = max(forgottenThrough, id)
        changeEvents.removeAll { $0.id <= forgottenThrough }
    }

    func storedLessons(_ id: CourseID) -> [Lesson]? { lessons[id] }

    public func setLessons(_ list: [Lesson], of id: CourseID) {
        lessons[id] = list
        catalog[id]?.lessonCount = list.count
    }

    /// Enrolls directly, for arranging (no rules, no seat).
    public func addEnrollment(_ enrollment: Enrollment) {
        enrollments.removeAll { $0.userID == enrollment.userID && $0.courseID == enrollment.courseID }
        enrollments.append(enrollment)
    }

    /// Makes a course a favourite or not directly, for arranging (as another terminal would).
    public func arrangeFavourite(_ isFavourite: Bool, _ user: UserID, _ course: CourseID) {
        if isFavourite { favourites[user, default: []].insert(course) } else { favourites[user]?.remove(course) }
    }

    public func storedCourse(_ id: CourseID) -> Course? { catalog[id] }
    public func storedFavourites(of user: UserID) -> Set<CourseID> { favourites[user] ?? [] }
    public func storedEnrollment(_ user: UserID, _ course: CourseID) -> Enrollment? {
        enrollments.first { $0.userID == user && $0.courseID == course }
    }
    public func storedUser(_ id: UserID) -> User? { users[id]?.user }
    public var sessionUser: UserID? { storedSession }

    func record(_ message: Message) async throws(AppError) {
        messages.append(message)
        if let gate, gateOnly?(message) ?? true { await gate.wait() }
        if let failure, failOnly?(message) ?? true { throw failure }
    }

    // MARK: - CourseRepository

    public func page(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> [CatalogRow]
    {
        try await record(.page(query.text, position, limit))
        return catalogIndex().page(query, at: position, limit: limit) { marks(of: learner, for: $0) }
    }

    public func count(_ query: CatalogQuery, for learner: UserID?) async throws(AppError) -> CatalogCount {
        try await record(.count(query.text))
        let count = catalogIndex().matches(query) { marks(of: learner, for: $0) }.count
        return count > query.countLimit ? .atLeast(query.countLimit) : .exactly(count)
    }

    private func marks(of learner: UserID?, for course: Course) -> CourseMarks {
        guard let learner else { return CourseMarks() }
        let enrollment = storedEnrollment(learner, course.id).flatMap { $0.holdsPlace ? $0 : nil }
        let prerequisiteMet =
            course.prerequisiteID.map { id in
                catalog[id] == nil || LessonRules.meetsPrerequisite(storedEnrollment(learner, id))
            } ?? true
        return CourseMarks(
            isFavourite: favourites[learner]?.contains(course.id) ?? false,
            enrollment: enrollment,
            prerequisiteMet: prerequisiteMet
        )
    }

    public func course(id: CourseID) async throws(AppError) -> Course {
        try await record(.course(id))
        guard let course = catalog[id] else { throw .courseNotFound(id) }
        return course
    }

    public func syllabus(of id: CourseID) async throws(AppError) -> Syllabus {
        try await record(.syllabus(id))
        guard let course = catalog[id] else { throw .courseNotFound(id) }
        // A store serves the bodies one lesson at a time, never with the syllabus.
        let list = (lessons[id] ?? [.only(of: course)]).map {
            Lesson(title: $0.title, minutes: $0.minutes, questionCount: $0.questionCount)
        }
        return Syllabus(course: course, lessons: list)
    }

    // MARK: - EnrollmentRepository

    public func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        try await record(.enroll(userID, courseID))
        return try perform(Enroll(userID: userID, courseID: courseID, now: now()))
    }

    public func unenroll(userID: UserID, courseID: CourseID) async throws(AppError) {
        try await record(.unenroll(userID, courseID))
        _ = try perform(Unenroll(userID: userID, courseID: courseID))
    }

    public func setLesson(_ number: Int, done: Bool, userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        try await record(.setLesson(number, done: done, userID, courseID))
        let marked = try perform(MarkLesson(number, done: done, userID: userID, courseID: courseID, now: now()))
        stampNow(.lesson(courseID, number: number, done: done), userID: userID)
        return marked
    }

    /// The SharedKernel's changes, as every store runs them; one actor turn is the transaction.
    func perform(_ change: some EnrollmentChange) throws(AppError) -> Enrollment {
        let facts = catalog[change.courseID].map { course in
            EnrollmentFacts(
                course: course,
                enrollment: storedEnrollment(change.userID, course.id),
                prerequisite: course.prerequisiteID.flatMap { id in catalog[id].map { ($0, storedEnrollment(change.userID, id)) } }
            )
        }
        let write = try change.decide(facts)
        note(.enrollment(change.userID, change.courseID))
        if write.movesSeats { note(.course(change.courseID)) }
        switch write {
        case .join(let userID, let courseID, let at):
            nextID += 1
            addEnrollment(Enrollment(id: EnrollmentID(nextID), userID: userID, courseID: courseID, enrolledAt: at))
            catalog[courseID]?.enrolledCount += 1
        case .rejoin(_, let courseID, let at, let status):
            if let index = storedEnrollmentIndex(change.userID, courseID) {
                enrollments[index].enrolledAt = at
                enrollments[index].lastActiveAt = at
                enrollments[index].status = status
            }
            catalog[courseID]?.enrolledCount += 1
        case .leave(_, let courseID):
            storedEnrollmentIndex(change.userID, courseID).map { enrollments[$0].status = .dropped }
            let count = catalog[courseID]?.enrolledCount ?? 1
            catalog[courseID]?.enrolledCount = max(0, count - 1)
        case .markLesson(_, let number, let done, let at, let status, let completedAt):
            if let index = storedEnrollmentIndex(change.userID, change.courseID) {
                enrollments[index].lastActiveAt = at
                if done { enrollments[index].lessonsDone.insert(number) } else { enrollments[index].lessonsDone.remove(number) }
                if done { lessonDoneTimes[change.userID, default: []].append(at) }
                enrollments[index].status = status
                enrollments[index].completedAt = completedAt
            }
        }
        guard let stored = storedEnrollment(change.userID, change.courseID) else {
            throw .storage(.saving, detail: "enrollment vanished inside its own transaction")
        }
        return stored
    }

    func storedEnrollmentIndex(_ user: UserID, _ course: CourseID) -> Int? {
        enrollments.firstIndex { $0.userID == user && $0.courseID == course }
    }

    public func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse] {
        try await record(.enrolledCourses(userID))
        return
            enrollments
            .filter { $0.userID == userID && $0.isListed }
            .sorted { ($0.lastActiveAt, $0.id.rawValue) > ($1.lastActiveAt, $1.id.rawValue) }
            .compactMap { enrollment in catalog[enrollment.courseID].map { EnrolledCourse(course: $0, enrollment: enrollment) } }
    }

    public func enrolledCourse(userID: UserID, courseID: CourseID) async throws(AppError) -> EnrolledCourse? {
        try await record(.enrolledCourse(userID, courseID))
        guard let enrollment = storedEnrollment(userID, courseID), enrollment.isListed, let course = catalog[courseID] else { return nil }
        return EnrolledCourse(course: course, enrollment: enrollment)
    }

    public func enrolledCourses(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [EnrolledCourse] {
        try await record(.enrolledCoursesAmong(userID, ids))
        let among = Set(ids)
        return
            enrollments
            .filter { $0.userID == userID && $0.isListed && among.contains($0.courseID) }
            .sorted { ($0.lastActiveAt, $0.id.rawValue) > ($1.lastActiveAt, $1.id.rawValue) }
            .compactMap { enrollment in catalog[enrollment.courseID].map { EnrolledCourse(course: $0, enrollment: enrollment) } }
    }

    // MARK: - FavouritesRepository

    public func setFavourite(_ isFavourite: Bool, userID: UserID, courseID: CourseID) async throws(AppError) {
        try await record(.setFavourite(isFavourite, userID, courseID))
        guard catalog[courseID] != nil else { throw .courseNotFound(courseID) }
        let changed =
            isFavourite
            ? favourites[userID, default: []].insert(courseID).inserted : favourites[userID]?.remove(courseID) != nil
        if changed { note(.favourite(userID, courseID)) }
        stampNow(.favourite(courseID, isFavourite: isFavourite), userID: userID)
    }

    public func favourite(userID: UserID, courseID: CourseID) async throws(AppError) -> Course? {
        try await record(.favourite(userID, courseID))
        return favourites[userID]?.contains(courseID) == true ? catalog[courseID] : nil
    }

    public func favourites(userID: UserID) async throws(AppError) -> [Course] {
        try await record(.favourites(userID))
        return BruteForceSearch.catalogOrder((favourites[userID] ?? []).compactMap { catalog[$0] })
    }

    public func favourites(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [Course] {
        try await record(.favouritesAmong(userID, ids))
        let mine = favourites[userID] ?? []
        return BruteForceSearch.catalogOrder(Set(ids).filter { mine.contains($0) }.compactMap { catalog[$0] })
    }

    // MARK: - ProfileRepository

    public func user(id: UserID) async throws(AppError) -> User {
        try await record(.user(id))
        guard let user = users[id]?.user else { throw .notSignedIn }
        return user
    }

    public func updateName(userID: UserID, to name: String) async throws(AppError) -> User {
        try await record(.updateName(userID, name))
        guard var entry = users[userID] else { throw .notSignedIn }
        entry.user.name = name
        users[userID] = entry
        note(.profile(userID))
        stampNow(.name(name), userID: userID)
        return entry.user
    }
}

// MARK: - ChangeLog

extension InMemoryStore {
    func note(_ change: Change) {
        lastChangeID += 1
        changeEvents.append(ChangeEvent(id: lastChangeID, change: change))
    }

    public func newestChangeID() async throws(AppError) -> Int64 {
        changeEvents.last?.id ?? forgottenThrough
    }

    public func changes(after id: Int64, for learner: UserID?, limit: Int) async throws(AppError) -> ChangeBatch {
        let newest = try await newestChangeID()
        guard id >= forgottenThrough, id <= newest else { return .gap(newest: newest) }
        let events = changeEvents.filter { event in
            event.id > id && (learner == nil || event.change.learner == nil || event.change.learner == learner)
        }
        return .events(Array(events.prefix(max(1, limit))))
    }
}

extension User {
    public static let demo = User(
        id: UserID(1), name: "Demo Learner", email: "demo@edugo.dev", memberSince: Date(timeIntervalSince1970: 1_700_000_000))
}

extension Enrollment {
    public static func fixture(
        id: Int64 = 1,
        userID: UserID = User.demo.id,
        courseID: CourseID = "swift-101",
        enrolledAt: Date = Date(timeIntervalSince1970: 1_763_769_600),
        status: EnrollmentStatus = .active,
        lessonsDone: Set<Int> = [],
        completedAt: Date? = nil
    ) -> Enrollment {
        Enrollment(
            id: EnrollmentID(id), userID: userID, courseID: courseID, enrolledAt: enrolledAt,
            status: status, lessonsDone: lessonsDone, completedAt: completedAt
        )
    }
}

/// A double keeps passwords as they are: its "hash" is the password itself.
struct PlainPasswords: PasswordHashing {
    func hashPassword(_ password: String) async throws -> String { password }
    func verifyPassword(_ password: String, against stored: String) async -> Bool { password == stored }
    var decoyHash: String { "\u{0}no password" }
}
