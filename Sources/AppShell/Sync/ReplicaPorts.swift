import Foundation
import SharedKernel
import Storage

/// Remote mode's favourites, enrollments, lesson marks and profile over a replica on the
/// learner's disk (SPEC, "Remote mode"). Every write is an operation: applied to the replica
/// and queued in one transaction, then sent; the server's refusal is the caller's error, and
/// a server out of reach leaves it queued (`⇡ N to sync`) and the write kept. Reads ask the
/// server while nothing waits, and keep what it says; while writes wait, or the server cannot
/// be reached, they read the replica, which has the waiting writes in it.
struct ReplicaPorts: FavouritesRepository, EnrollmentRepository, ProfileRepository, SessionRepository {
    /// The same ports over the server's API.
    struct Server: Sendable {
        /// The stored session renewed, or, while the server cannot be reached, the learner
        /// given let in on it (`RemoteStore.restoreSession(knowing:)`).
        var restore: @Sendable (User?) async throws(AppError) -> User?
        var courses: any CourseRepository
        var enrollments: any EnrollmentRepository
        var favourites: any FavouritesRepository
        var profiles: any ProfileRepository
        var sessions: any SessionRepository
    }

    private let server: Server
    private let replica: SQLiteReplica
    private let outbox: SQLiteOutbox
    private let sync: OutboxSync
    private let favouritesHere: SQLiteFavouritesRepository
    private let enrollmentsHere: SQLiteEnrollmentRepository
    private let profilesHere: SQLiteProfileRepository
    private let coursesHere: SQLiteCourseRepository
    /// The courses the server showed lately (`RememberingCourses` fills it).
    private let seen: SeenCourses
    /// Saves the enrolled courses for offline; nil saves none (tests of these ports alone).
    private let saver: OfflineSaver?
    /// While the first catalog page is drawn from disk, the marks on it are the replica's.
    private let opening: OpeningPage?

    init(
        server: Server, seen: SeenCourses, database: AppDatabase, outbox: SQLiteOutbox, sync: OutboxSync, saver: OfflineSaver? = nil,
        opening: OpeningPage? = nil
    ) {
        self.server = server
        self.saver = saver
        self.opening = opening
        self.seen = seen
        self.replica = SQLiteReplica(database: database)
        self.outbox = outbox
        self.sync = sync
        self.favouritesHere = SQLiteFavouritesRepository(database: database)
        self.enrollmentsHere = SQLiteEnrollmentRepository(database: database)
        self.profilesHere = SQLiteProfileRepository(database: database)
        self.coursesHere = SQLiteCourseRepository(database: database)
    }

    // MARK: Sessions: the learner signed in is the replica's, and their queue is sent.

    /// The stored session; while the server cannot be reached, the learner last signed in
    /// here opens on the replica (their writes wait, `⇡`), and renews it once it answers.
    func restoreSession() async throws(AppError) -> User? {
        let known = try? await replica.signedIn()
        let user = try await server.restore(known)
        await started(user, signedInHere: known?.id)
        return user
    }

    func signIn(email: String, password: String) async throws(AppError) -> User {
        let user = try await server.sessions.signIn(email: email, password: password)
        await started(user)
        return user
    }

    func createAccount(name: String, email: String, password: String) async throws(AppError) -> User {
        let user = try await server.sessions.createAccount(name: name, email: email, password: password)
        await started(user)
        return user
    }

    func signOut(userID: UserID) async throws(AppError) {
        try? await replica.remember(signedIn: nil)
        await sync.follow(nil)
        await saver?.start(nil)
        try await server.sessions.signOut(userID: userID)
    }

    /// The replica keeps the learner; writes queued before (an earlier run, a session the
    /// server ended) are sent before the screens read, so they read the server's word. A
    /// start reads the replica in turn before its first frame: what it knows already
    /// (`signedInHere`: the learner it has signed in) is not read again.
    private func started(_ user: User?, signedInHere: UserID? = nil) async {
        guard let user else {
            await saver?.start(nil)
            return await sync.follow(nil)
        }
        // A replica that cannot be written leaves the learner on the server alone: each
        // write then says why it could not be kept.
        _ = try? await replica.keep(user: user)
        if signedInHere != user.id { try? await replica.remember(signedIn: user.id) }
        // Writes queued before are sent before the first frame: the server is needed now.
        await sync.follow(user.id, sending: true, beforeSending: { [opening] in opening?.serverIsNeeded() })
        await saver?.start(user.id)
    }

    // MARK: Favourites

    func setFavourite(_ isFavourite: Bool, userID: UserID, courseID: CourseID) async throws(AppError) {
        try await needCourse(courseID)
        if try await !replica.holds(.favourites, userID: userID) { _ = try? await favourites(userID: userID) }
        try await write(.favourite(courseID, isFavourite: isFavourite), userID: userID)
    }

    func favourites(userID: UserID) async throws(AppError) -> [Course] {
        try await read(.favourites, userID: userID) { () async throws(AppError) -> [Course]? in
            let courses = try await server.favourites.favourites(userID: userID)
            return try await replica.adoptFavourites(courses, userID: userID) ? courses : nil
        } here: { () async throws(AppError) in
            try await favouritesHere.favourites(userID: userID)
        }
    }

    func favourites(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [Course] {
        if try await drawsFromDisk(.favourites, userID: userID) { return try await favouritesHere.favourites(userID: userID, among: ids) }
        return try await read(.favourites, userID: userID) { () async throws(AppError) -> [Course]? in
            let courses = try await server.favourites.favourites(userID: userID, among: ids)
            return try await replica.adoptFavourites(courses, among: ids, userID: userID) ? courses : nil
        } here: { () async throws(AppError) in
            try await favouritesHere.favourites(userID: userID, among: ids)
        }
    }

    func favourite(userID: UserID, courseID: CourseID) async throws(AppError) -> Course? {
        try await read(.favourites, userID: userID) { () async throws(AppError) -> Course?? in
            let course = try await server.favourites.favourite(userID: userID, courseID: courseID)
            return try await replica.adoptFavourites(course.map { [$0] } ?? [], among: [courseID], userID: userID) ? .some(course) : nil
        } here: { () async throws(AppError) in
            try await favouritesHere.favourite(userID: userID, courseID: courseID)
        }
    }

    // MARK: Enrollments and lesson marks

    func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        let asked = try await needEnrollment(userID: userID, courseID: courseID)
        if try await write(.enroll(courseID), userID: userID) == .superseded {
            throw .refused(.alreadyEnrolled(title: await title(of: courseID)))
        }
        await saver?.start(userID)
        return try await enrollmentHere(userID: userID, courseID: courseID, asked: asked)
    }

    func unenroll(userID: UserID, courseID: CourseID) async throws(AppError) {
        let asked = try await needEnrollment(userID: userID, courseID: courseID)
        if try await write(.unenroll(courseID), userID: userID) == .superseded { throw asked ?? .notEnrolled(courseID) }
    }

    func setLesson(_ number: Int, done: Bool, userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        let asked = try await needEnrollment(userID: userID, courseID: courseID)
        do {
            try await write(.lesson(courseID, number: number, done: done), userID: userID)
        } catch .notEnrolled(let id) {
            // The replica has no place here and the server could not be asked: say that.
            throw asked ?? .notEnrolled(id)
        }
        return try await enrollmentHere(userID: userID, courseID: courseID, asked: asked)
    }

    func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse] {
        try await read(.enrollments, userID: userID) { () async throws(AppError) -> [EnrolledCourse]? in
            let enrolled = try await server.enrollments.enrolledCourses(userID: userID)
            return try await replica.adoptEnrollments(enrolled, userID: userID) ? enrolled : nil
        } here: { () async throws(AppError) in
            try await enrollmentsHere.enrolledCourses(userID: userID)
        }
    }

    func enrolledCourse(userID: UserID, courseID: CourseID) async throws(AppError) -> EnrolledCourse? {
        try await read(.enrollments, userID: userID) { () async throws(AppError) -> EnrolledCourse?? in
            let enrolled = try await server.enrollments.enrolledCourse(userID: userID, courseID: courseID)
            return try await replica.adoptEnrollments(enrolled.map { [$0] } ?? [], among: [courseID], userID: userID)
                ? .some(enrolled) : nil
        } here: { () async throws(AppError) in
            try await enrollmentsHere.enrolledCourse(userID: userID, courseID: courseID)
        }
    }

    func enrolledCourses(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [EnrolledCourse] {
        if try await drawsFromDisk(.enrollments, userID: userID) {
            return try await enrollmentsHere.enrolledCourses(userID: userID, among: ids)
        }
        return try await read(.enrollments, userID: userID) { () async throws(AppError) -> [EnrolledCourse]? in
            let enrolled = try await server.enrollments.enrolledCourses(userID: userID, among: ids)
            return try await replica.adoptEnrollments(enrolled, among: ids, userID: userID) ? enrolled : nil
        } here: { () async throws(AppError) in
            try await enrollmentsHere.enrolledCourses(userID: userID, among: ids)
        }
    }

    // MARK: Profile

    func user(id: UserID) async throws(AppError) -> User {
        try await read(.profile, userID: id) { () async throws(AppError) -> User? in
            let user = try await server.profiles.user(id: id)
            return try await replica.keep(user: user) ? user : nil
        } here: { () async throws(AppError) in
            try await profilesHere.user(id: id)
        }
    }

    func updateName(userID: UserID, to name: String) async throws(AppError) -> User {
        try await write(.name(name), userID: userID)
        return try await profilesHere.user(id: userID)
    }

    // MARK: The rules of reading and writing

    /// Whether the marks of the first frame are the replica's: it is drawn from disk, and the
    /// replica holds the whole list (the server's whole list follows it, behind the frame).
    private func drawsFromDisk(_ part: SQLiteReplica.Part, userID: UserID) async throws(AppError) -> Bool {
        guard opening?.drawsFromDisk == true else { return false }
        return try await replica.holds(part, userID: userID)
    }

    /// The server's answer while nothing waits (nil from `fromServer`: it was not kept, a
    /// write came meanwhile); else, or when the server cannot be reached and the replica
    /// holds `part`, the replica's.
    private func read<Value>(
        _ part: SQLiteReplica.Part, userID: UserID,
        fromServer: () async throws(AppError) -> Value?,
        here: () async throws(AppError) -> Value
    ) async throws(AppError) -> Value {
        if try await outbox.count(userID: userID) == 0 {
            do throws(AppError) {
                if let value = try await fromServer() { return value }
            } catch  where error.isUnreachable {
                guard try await replica.holds(part, userID: userID) else { throw error }
            }
        }
        return try await here()
    }

    /// Applies `kind` to the replica and queues it, then sends the queue. A refusal, the
    /// replica's or the server's, is thrown (the server's after the replica has its word
    /// again); a server out of reach leaves the write queued and kept.
    @discardableResult
    private func write(_ kind: OperationKind, userID: UserID) async throws(AppError) -> OperationOutcome {
        let (operation, outcome) = try await outbox.record(kind, userID: userID)
        if case .refused(let error) = outcome { throw error }
        // Counted in the header once sent or not: a write the server takes at once never
        // blinks `⇡ 1` (the screen says `Saving…` meanwhile).
        let sent = await sync.send(userID: userID, claiming: operation.id)
        if let refusal = sent.refused.first(where: { $0.0.id == operation.id }) {
            await takeBack(kind, userID: userID)
            throw refusal.1
        }
        return outcome
    }

    /// The server refused `kind`: the replica reads what the server holds instead (when
    /// nothing else waits; else once the queue is sent).
    private func takeBack(_ kind: OperationKind, userID: UserID) async {
        switch kind {
        case .favourite: _ = try? await favourites(userID: userID)
        case .name: _ = try? await user(id: userID)
        case .lesson(let courseID, _, _), .enroll(let courseID), .unenroll(let courseID):
            _ = try? await enrolledCourse(userID: userID, courseID: courseID)
        case .answer, .review, .undoReview: break
        }
    }

    /// The course's row in the replica: as the catalog showed it lately, else from the
    /// server (a write on a course never seen needs the server, and says so).
    private func needCourse(_ courseID: CourseID) async throws(AppError) {
        guard try await !replica.hasCourse(courseID) else { return }
        let course: Course
        if let shown = seen.course(courseID) { course = shown } else { course = try await server.courses.course(id: courseID) }
        try await replica.keep(courses: [course])
    }

    /// The course's row, and the learner's place in it as the server has it when the replica
    /// has none and nothing waits. Returns the server's being out of reach when it could not
    /// be asked, for a refusal that would otherwise blame the learner.
    private func needEnrollment(userID: UserID, courseID: CourseID) async throws(AppError) -> AppError? {
        try await needCourse(courseID)
        guard try await !replica.hasEnrollment(userID: userID, courseID: courseID) else { return nil }
        guard try await outbox.count(userID: userID) == 0 else { return nil }
        do {
            let enrolled = try await server.enrollments.enrolledCourse(userID: userID, courseID: courseID)
            _ = try await replica.adoptEnrollments(enrolled.map { [$0] } ?? [], among: [courseID], userID: userID)
            return nil
        } catch  where error.isUnreachable {
            return error
        }
    }

    private func enrollmentHere(userID: UserID, courseID: CourseID, asked: AppError?) async throws(AppError) -> Enrollment {
        guard let enrolled = try await enrollmentsHere.enrolledCourse(userID: userID, courseID: courseID) else {
            throw asked ?? .notEnrolled(courseID)
        }
        return enrolled.enrollment
    }

    private func title(of courseID: CourseID) async -> String {
        (try? await coursesHere.course(id: courseID).title) ?? courseID.rawValue
    }
}
