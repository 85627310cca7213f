import AsyncHTTPClient
import EduGoAPI
import Foundation
import Logging
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import SharedKernel

/// What the remote store tells the app besides the answers to its calls.
public enum RemoteEvent: Sendable, Equatable {
    /// The server refused to renew the learner's session: they must sign in again.
    case sessionEnded
    /// A request found the server unusable (no answer, garbage); said once per outage.
    case unreachable
    /// The server answered again after `unreachable`.
    case reachable
}

/// Whether the last request reached the server, told to the app only when that changes.
actor Reachability {
    private var isReachable = true
    private let report: @Sendable (RemoteEvent) -> Void

    init(report: @escaping @Sendable (RemoteEvent) -> Void) {
        self.report = report
    }

    func note(_ failure: RemoteFailure?) {
        let reachable: Bool
        switch failure {
        case nil, .api: reachable = true
        case .unreachable: reachable = false
        case .cancelled, .app: return
        }
        guard reachable != isReachable else { return }
        isReachable = reachable
        report(reachable ? .reachable : .unreachable)
    }
}

/// Every SharedKernel port over the EduGo API (SPEC.md, "Remote mode"): the same answers and
/// the same `AppError`s as the local store, so the features cannot tell the two apart. The
/// learner is the one signed in through this store; a call for anyone else is `.notSignedIn`.
public struct RemoteStore: Sendable {
    /// SPEC: every request has a time limit.
    public static let defaultTimeLimit: Duration = .seconds(10)
    /// How long log out waits for the server to end the session there; it ends here anyway.
    static let signOutTimeLimit: Duration = .seconds(2)

    public let server: URL
    /// What the app is told besides answers: the session ended, the server out of reach or back.
    public let events: AsyncStream<RemoteEvent>
    let requests: APIRequests
    let session: RemoteSession
    /// What the change feed's waits sleep on (before reconnecting, for a silent stream).
    let clock: any Clock<Duration>
    /// The lessons read in this session.
    let lessons = LessonCache()

    /// - Parameters:
    ///   - server: the server's base URL (`http://host:port`).
    ///   - dataDirectory: where the session file of this server is kept.
    ///   - httpClient: shared by the stores of a process, shut down by its owner after their last call.
    ///   - now: the clock tokens expire by (tests move it).
    ///   - clock: the one the change feed waits on before reconnecting (tests move it).
    ///   - language: the UI's language code, sent as `Accept-Language`: the server's messages
    ///     (a rejected field's reason) come in it.
    ///   - timeLimitClock: what a request's time limit is measured on; `nil`, the wall clock.
    ///     Tests that are not about time limits give a clock they hold, so a machine too busy to
    ///     run the server's handler within 10 s does not fail them.
    public init(
        server: URL, dataDirectory: URL, httpClient: RemoteHTTPClient, timeLimit: Duration = RemoteStore.defaultTimeLimit,
        logger: Logger = Logger(label: "edugo.remote", factory: { _ in SwiftLogNoOpLogHandler() }),
        now: @escaping @Sendable () -> Date = Date.init, clock: any Clock<Duration> = ContinuousClock(), language: String = "en",
        timeLimitClock: (any Clock<Duration>)? = nil
    ) {
        self.init(
            server: server, dataDirectory: dataDirectory, httpClient: httpClient, timeLimit: timeLimit, logger: logger, now: now,
            nextToTransport: [LanguageMiddleware(code: language)], clock: clock, timeLimitClock: timeLimitClock)
    }

    /// `nextToTransport`: middlewares that see each answer as the transport gives it, before
    /// the store's own (tests count the bytes read through them).
    init(
        server: URL, dataDirectory: URL, httpClient: RemoteHTTPClient, timeLimit: Duration, logger: Logger,
        now: @escaping @Sendable () -> Date, nextToTransport: [any ClientMiddleware], clock: any Clock<Duration> = ContinuousClock(),
        timeLimitClock: (any Clock<Duration>)? = nil
    ) {
        self.server = server
        self.clock = clock
        // On the wall clock the transport's deadline is the limit too; on a clock a test holds,
        // the limit is `APIRequests.limited`'s alone (it cancels the request), and the
        // transport's deadline, which the type requires, is an hour.
        let seconds = timeLimitClock == nil ? max(1, timeLimit.components.seconds) : 3_600
        let transport = AsyncHTTPClientTransport(configuration: .init(client: httpClient.client, timeout: .seconds(seconds)))
        // The server writes dates as ISO 8601 without fractions, as the generated default reads them.
        let client = Client(
            serverURL: server, transport: transport,
            middlewares: [BearerMiddleware(), FailureMiddleware(), BodyLimitMiddleware()] + nextToTransport)
        let (events, continuation) = AsyncStream.makeStream(of: RemoteEvent.self, bufferingPolicy: .bufferingNewest(8))
        self.events = events
        let host = server.host.map { host in server.port.map { "\(host):\($0)" } ?? host } ?? server.absoluteString
        requests = APIRequests(
            client: client, timeLimit: timeLimit, limitClock: timeLimitClock ?? ContinuousClock(), host: host, logger: logger,
            reachability: Reachability(report: { continuation.yield($0) })
        )
        session = RemoteSession(
            requests: requests, server: server, file: SessionFile(directory: dataDirectory, server: server), now: now,
            report: { continuation.yield($0) }
        )
    }

    /// The host as the learner knows it, for `Cannot reach <host>`.
    public var hostDescription: String { requests.host }

    /// How many token refreshes this store has sent (tests of the de-duplication).
    public var refreshCount: Int {
        get async { await session.refreshCount }
    }

    // MARK: - Calls

    /// Whether the server answers now (`GET /health`); the app's retries ask this.
    public func probe() async -> Bool {
        do {
            _ = try await open { client in try await client.getHealth().ok }
            return true
        } catch {
            return false
        }
    }

    /// Before the app ends: lets a token refresh under way finish storing its new token,
    /// waiting at most as long as log out waits for the server (2 s).
    public func finish() async {
        // Waiting on a task's value ignores cancellation, so the two race through a stream
        // that whichever ends first finishes.
        let (done, finished) = AsyncStream.makeStream(of: Void.self)
        let settling = Task { [session] in
            await session.settle()
            finished.finish()
        }
        let limit = Task {
            try? await Task.sleep(for: Self.signOutTimeLimit)
            finished.finish()
        }
        for await _ in done {}
        settling.cancel()
        limit.cancel()
    }

    /// A call that needs no learner.
    func open<T: Sendable>(_ operation: @escaping @Sendable (Client) async throws -> T) async throws(RemoteFailure) -> T {
        try await requests.send(operation)
    }

    /// A call as the learner `userID`, with their access token (renewed as needed).
    func authorized<T: Sendable>(as userID: UserID, _ operation: @escaping @Sendable (Client) async throws -> T) async throws(RemoteFailure)
        -> T
    {
        try await session.authorized(as: userID) { () async throws(RemoteFailure) -> T in try await requests.send(operation) }
    }
}

// MARK: - What the server sends

extension RemoteStore {
    /// The course, if it passes the import's limits; otherwise nil, and a warning in the log
    /// naming the course and the field (a list then shows the rest).
    func accepted(_ course: Components.Schemas.Course) -> Course? {
        do {
            return try Course.checked(course)
        } catch {
            log(error)
            return nil
        }
    }

    /// The enrollment an answer about `courseID` holds, or connectivity if it is out of range,
    /// about another course, or (`holdingPlace`: a write that joins or marks) not a place.
    func checked(
        _ enrollment: Components.Schemas.Enrollment, userID: UserID, courseID: CourseID, holdingPlace: Bool = false
    ) throws(RemoteFailure) -> Enrollment {
        do throws(RefusedCourse) {
            let mapped = try Enrollment.checked(enrollment, userID: userID)
            guard mapped.courseID == courseID else {
                throw RefusedCourse(id: enrollment.course.id, problem: "an answer about course \(courseID.rawValue.debugDescription)")
            }
            guard mapped.holdsPlace || !holdingPlace else { throw RefusedCourse(id: enrollment.course.id, problem: "status dropped") }
            return mapped
        } catch {
            throw .app(refused(error))
        }
    }

    /// A single answer about one course that is out of range: the server answered garbage,
    /// which is connectivity for the learner (as any answer that is not the API's).
    func refused(_ refusal: RefusedCourse) -> AppError {
        log(refusal)
        return .connectivity
    }

    /// An answer that is not one the API gives: logged, and connectivity for the learner.
    func refusedAnswer(_ detail: String) -> AppError {
        requests.logger.warning("refused an answer from \(requests.host): \(detail)")
        return .connectivity
    }

    func log(_ refusal: RefusedCourse) {
        requests.logger.warning("refused \(refusal) from \(requests.host)", metadata: ["course": "\(refusal.id.debugDescription)"])
    }
}

/// How every request goes: within the time limit, its failure logged, and whether the server
/// answered told to `reachability`.
struct APIRequests: Sendable {
    let client: Client
    let timeLimit: Duration
    /// What `timeLimit` is measured on.
    let limitClock: any Clock<Duration>
    /// `host:port`, as the learner knows the server.
    let host: String
    let logger: Logger
    let reachability: Reachability

    func send<T: Sendable>(within limit: Duration? = nil, _ operation: @escaping @Sendable (Client) async throws -> T)
        async throws(RemoteFailure) -> T
    {
        let client = self.client
        do {
            let value = try await limited(to: limit) { try await operation(client) }
            await reachability.note(nil)
            return value
        } catch {
            let failure = RemoteFailure.from(error)
            await reachability.note(failure)
            switch failure {
            case .unreachable(let detail): logger.warning("server \(host) unusable", metadata: ["detail": "\(detail)"])
            case .api(let status, _, _, _) where status >= 500:
                logger.warning("server error", metadata: ["detail": "\(failure.technicalDetail)"])
            default: break
            }
            throw failure
        }
    }

    /// The operation, or `.unreachable` when it has no answer in time (body included).
    private func limited<T: Sendable>(to limit: Duration?, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let limit = min(limit ?? timeLimit, timeLimit)
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask { [limitClock] in
                try await limitClock.sleep(for: limit)
                throw RemoteFailure.unreachable(detail: "no answer within \(limit)")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }
}

/// The connections remote stores make: one per process, passed to each store, and shut down
/// by its owner once the stores are done (AsyncHTTPClient requires it).
public struct RemoteHTTPClient: Sendable {
    let client: HTTPClient

    public init() {
        var configuration = HTTPClient.Configuration()
        // A refused connection fails its request at once: AsyncHTTPClient would otherwise try
        // again until the time limit, and a dead server would look like a slow one.
        configuration.connectionPool.retryConnectionEstablishment = false
        // A read timeout for the event stream, which no request time limit bounds: the server
        // writes at least a keep-alive every 15 s, so one silent for 45 s is dropped and opened
        // again (every other request has its 10 s limit already).
        configuration.timeout = .init(
            connect: .seconds(Int64(RemoteStore.defaultTimeLimit.components.seconds)), read: .seconds(Self.streamSilenceLimit))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Seconds an answer may send nothing before its connection is given up.
    static let streamSilenceLimit: Int64 = 45

    public func shutdown() async {
        try? await client.shutdown()
    }
}

// MARK: - CourseRepository

extension RemoteStore: CourseRepository {
    public func page(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> [CatalogRow]
    {
        guard !query.matchesNothing, limit > 0 else { return [] }
        var rows: [CatalogRow] = []
        let forward =
            switch position {
            case .first, .after: true
            case .last, .before: false
            }
        // The API gives at most 100 a page; a longer page is read in steps. A refused course
        // leaves a gap that the next step fills; a server that sends little but refused
        // courses is asked a few steps more, not without end (the list then ends early).
        var next = position
        var stepsLeft = (limit + 99) / 100 + Self.stepsForRefusedCourses
        while rows.count < limit, stepsLeft > 0 {
            stepsLeft -= 1
            let wanted = min(limit - rows.count, 100)
            let page = try await coursePage(query, for: learner, at: next, limit: wanted)
            guard page.courses.count <= wanted else {
                throw refusedAnswer("a page of \(page.courses.count) courses where \(wanted) were asked for")
            }
            var keys: [CatalogKey] = []
            var found: [CatalogRow] = []
            for item in page.courses {
                guard let key = CatalogKey(pageKey: item.value2.key, sort: query.sort) else {
                    // A key the server could not have given: not the API's answer.
                    throw RemoteFailure.unreachable(detail: "a page key that is not the server's: \(item.value2.key.prefix(40))").appError
                }
                keys.append(key)
                if let course = accepted(item.value1) { found.append(CatalogRow(key: keys[keys.count - 1], course: course)) }
            }
            if forward { rows += found } else { rows.insert(contentsOf: found, at: 0) }
            // The next step starts where the server says the catalog goes on: past the last
            // course it sent, refused or not. A page may hold fewer courses than asked and still
            // go on (a server keeps each answer under the terminal's cap, `CourseLimits.pageBytes`).
            guard let edgeText = forward ? page.next : page.previous, !edgeText.isEmpty else { break }
            guard let edge = CatalogKey(pageKey: edgeText, sort: query.sort) else {
                throw RemoteFailure.unreachable(detail: "a page key that is not the server's: \(edgeText.prefix(40))").appError
            }
            next = forward ? .after(edge) : .before(edge)
        }
        return rows
    }

    /// Steps a page may take beyond those its length needs, to fill the gaps of refused courses.
    static let stepsForRefusedCourses = 4

    public func count(_ query: CatalogQuery, for learner: UserID?) async throws(AppError) -> CatalogCount {
        guard !query.matchesNothing else { return .exactly(0) }
        // The order changes no count, and a search in title order is the cheapest to answer.
        let page = try await coursePage(query.unsorted, for: learner, at: .first, limit: 1)
        // No catalog has a negative count, or one past 2^31 courses: such a count is garbage.
        guard let total = Int(exactly: page.total), (0...Self.largestCount).contains(total) else {
            throw refusedAnswer("a catalog count of \(page.total)")
        }
        return page.totalIsLowerBound ? .atLeast(total) : .exactly(total)
    }

    /// The largest catalog count taken from a server.
    static let largestCount = Int(Int32.max)

    private func coursePage(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError)
        -> Components.Schemas.CoursePage
    {
        let text = query.understoodText
        let (after, before): (String?, String?) =
            switch position {
            case .first: (nil, nil)
            case .last: (nil, CatalogKey.pastEveryPageKey(query.sort))
            case .after(let key): (key.pageKey, nil)
            case .before(let key): (nil, key.pageKey)
            }
        let request = Operations.ListCourses.Input.Query(
            query: text.isEmpty ? nil : text, sort: query.sort == .title ? nil : query.sort.apiText, after: after, before: before,
            limit: Int64(limit))
        let operation: @Sendable (Client) async throws -> Components.Schemas.CoursePage = { client in
            try await client.listCourses(query: request).ok.body.json
        }
        do {
            // The learner's own filters need the token; the rest of the catalog is public.
            if let learner, query.dependsOnLearner { return try await authorized(as: learner, operation) }
            return try await open(operation)
        } catch {
            throw error.appError
        }
    }

    public func course(id: CourseID) async throws(AppError) -> Course {
        try await syllabus(of: id).course
    }

    public func syllabus(of id: CourseID) async throws(AppError) -> Syllabus {
        let detail: Components.Schemas.CourseDetail
        do {
            detail = try await open { client in try await client.getCourse(path: .init(courseId: id.rawValue)).ok.body.json }
        } catch {
            throw Self.appError(error, course: id)
        }
        do {
            return try Syllabus.checked(detail)
        } catch {
            throw refused(error)
        }
    }

    /// The failures that name the course the request was about.
    static func appError(_ failure: RemoteFailure, course: CourseID, lesson: Int = 0) -> AppError {
        guard case .api(_, let code, _, _) = failure else { return failure.appError }
        switch code {
        case .courseNotFound: return .courseNotFound(course)
        case .notEnrolled: return .notEnrolled(course)
        case .lessonNotFound: return .noSuchLesson(course, lesson)
        default: return failure.appError
        }
    }
}

// MARK: - EnrollmentRepository

extension RemoteStore: EnrollmentRepository {
    public func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        do {
            let enrollment = try await authorized(as: userID) { client in
                try await client.enroll(path: .init(courseId: courseID.rawValue)).created.body.json
            }
            return try checked(enrollment, userID: userID, courseID: courseID, holdingPlace: true)
        } catch {
            if case .api(409, let code, _, _) = error { throw try await refusal(code: code, courseID: courseID) }
            throw Self.appError(error, course: courseID)
        }
    }

    public func unenroll(userID: UserID, courseID: CourseID) async throws(AppError) {
        do {
            _ = try await authorized(as: userID) { client in try await client.unenroll(path: .init(courseId: courseID.rawValue)).noContent }
        } catch {
            throw Self.appError(error, course: courseID)
        }
    }

    public func setLesson(_ number: Int, done: Bool, userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        guard number >= 1 else { throw .noSuchLesson(courseID, number) }
        let lesson = Int64(number)
        do {
            let enrollment = try await authorized(as: userID) { client in
                if done {
                    try await client.markLessonDone(path: .init(courseId: courseID.rawValue, lesson: lesson)).ok.body.json
                } else {
                    try await client.markLessonNotDone(path: .init(courseId: courseID.rawValue, lesson: lesson)).ok.body.json
                }
            }
            return try checked(enrollment, userID: userID, courseID: courseID, holdingPlace: true)
        } catch {
            throw Self.appError(error, course: courseID, lesson: number)
        }
    }

    public func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse] {
        try await enrolledCourses(userID: userID, among: nil)
    }

    /// An enrollment in a course not asked about is garbage: connectivity.
    public func enrolledCourses(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [EnrolledCourse] {
        guard !ids.isEmpty else { return [] }
        return try await enrolledCourses(userID: userID, among: Optional(ids))
    }

    private func enrolledCourses(userID: UserID, among ids: [CourseID]?) async throws(AppError) -> [EnrolledCourse] {
        let asked = ids.map { Array(Set($0.map(\.rawValue))) }
        let list: Components.Schemas.EnrollmentList
        do {
            list = try await authorized(as: userID) { client in
                try await client.listEnrollments(query: .init(courseIds: asked)).ok.body.json
            }
        } catch {
            throw error.appError
        }
        if let asked, let stray = list.enrollments.first(where: { !asked.contains($0.course.id) }) {
            throw refusedAnswer("an enrollment in \(stray.course.id) where \(asked.count) other courses were asked about")
        }
        return list.enrollments.compactMap { item -> EnrolledCourse? in
            guard let course = accepted(item.course) else { return nil }
            do throws(RefusedCourse) {
                return EnrolledCourse(course: course, enrollment: try Enrollment.checked(item, userID: userID))
            } catch {
                log(error)
                return nil
            }
        }
    }

    /// 404 `not_enrolled` is none; the answer must be about this course, its course within
    /// the import's limits (else the server answered garbage: connectivity).
    public func enrolledCourse(userID: UserID, courseID: CourseID) async throws(AppError) -> EnrolledCourse? {
        let item: Components.Schemas.Enrollment
        do {
            item = try await authorized(as: userID) { client in
                try await client.getEnrollment(path: .init(courseId: courseID.rawValue)).ok.body.json
            }
        } catch {
            if case .api(404, .notEnrolled, _, _) = error { return nil }
            throw Self.appError(error, course: courseID)
        }
        let course: Course
        do {
            course = try Course.checked(item.course)
        } catch {
            throw refused(error)
        }
        do {
            return EnrolledCourse(course: course, enrollment: try checked(item, userID: userID, courseID: courseID))
        } catch {
            throw error.appError
        }
    }

    /// The refusal as the local store words it, which names the course (or its prerequisite).
    private func refusal(code: ErrorCode?, courseID: CourseID) async throws(AppError) -> AppError {
        let course = try await self.course(id: courseID)
        switch code {
        case .alreadyEnrolled: return .refused(.alreadyEnrolled(title: course.title))
        case .courseFull: return .refused(.courseFull(title: course.title))
        case .courseInactive: return .refused(.courseInactive(title: course.title))
        case .prerequisiteMissing:
            guard let prerequisite = course.prerequisiteID else { return .refused(.courseInactive(title: course.title)) }
            return .refused(.prerequisiteNotCompleted(prerequisiteTitle: try await self.course(id: prerequisite).title))
        default: return .storage(.saving, detail: "refused: \(code?.rawValue ?? "unknown code")")
        }
    }
}

// MARK: - FavouritesRepository

extension RemoteStore: FavouritesRepository {
    public func setFavourite(_ isFavourite: Bool, userID: UserID, courseID: CourseID) async throws(AppError) {
        let path = Operations.AddFavourite.Input.Path(courseId: courseID.rawValue)
        do {
            _ = try await authorized(as: userID) { client in
                if isFavourite {
                    _ = try await client.addFavourite(path: path).noContent
                } else {
                    _ = try await client.removeFavourite(path: .init(courseId: path.courseId)).noContent
                }
            }
        } catch {
            throw Self.appError(error, course: courseID)
        }
    }

    /// The course when the server says it is a favourite; none when it says it is not, or
    /// that there is no such course. A course out of range is garbage: connectivity.
    public func favourite(userID: UserID, courseID: CourseID) async throws(AppError) -> Course? {
        let state: Components.Schemas.FavouriteState
        do {
            state = try await authorized(as: userID) { client in
                try await client.getFavourite(path: .init(courseId: courseID.rawValue)).ok.body.json
            }
        } catch {
            switch error {
            case .api(404, .courseNotFound, _, _), .api(404, .notFound, _, _): return nil
            default: throw Self.appError(error, course: courseID)
            }
        }
        guard state.favourite else { return nil }
        let course: Course
        do {
            course = try Course.checked(state.course)
        } catch {
            throw refused(error)
        }
        guard course.id == courseID else { throw refusedAnswer("a favourite of \(course.id) where \(courseID) was asked for") }
        return course
    }

    public func favourites(userID: UserID) async throws(AppError) -> [Course] {
        do {
            return try await authorized(as: userID) { client in try await client.listFavourites().ok.body.json }.courses.compactMap(
                accepted)
        } catch {
            throw error.appError
        }
    }

    /// A favourite not asked about is garbage: connectivity.
    public func favourites(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [Course] {
        guard !ids.isEmpty else { return [] }
        let asked = Array(Set(ids.map(\.rawValue)))
        let courses: [Components.Schemas.Course]
        do {
            courses = try await authorized(as: userID) { client in
                try await client.listFavourites(query: .init(courseIds: asked)).ok.body.json
            }
            .courses
        } catch {
            throw error.appError
        }
        if let stray = courses.first(where: { !asked.contains($0.id) }) {
            throw refusedAnswer("a favourite \(stray.id) where \(asked.count) other courses were asked about")
        }
        return courses.compactMap(accepted)
    }
}

// MARK: - ProfileRepository

extension RemoteStore: ProfileRepository {
    public func user(id: UserID) async throws(AppError) -> User {
        do {
            return User(try await authorized(as: id) { client in try await client.getMe().ok.body.json })
        } catch {
            throw error.appError
        }
    }

    public func updateName(userID: UserID, to name: String) async throws(AppError) -> User {
        do {
            return User(
                try await authorized(as: userID) { client in try await client.updateMe(body: .json(.init(name: name))).ok.body.json })
        } catch {
            if case .api(_, .invalidName?, _, _) = error {
                // The server's rules are the app's: the same check names the reason here.
                if case .failure(let rejection) = ProfileName.validate(name) { throw .invalidName(rejection) }
                throw .invalidName(.invalidCharacters)
            }
            throw error.appError
        }
    }
}

// MARK: - SessionRepository

extension RemoteStore: SessionRepository {
    public func restoreSession() async throws(AppError) -> User? {
        try await session.restore()
    }

    public func signIn(email: String, password: String) async throws(AppError) -> User {
        let started: Components.Schemas.Session
        do {
            started = try await open { client in
                try await client.signIn(body: .json(.init(email: email, password: password))).created.body.json
            }
        } catch {
            throw error.appError
        }
        return try await session.adopt(started)
    }

    public func createAccount(name: String, email: String, password: String) async throws(AppError) -> User {
        let started: Components.Schemas.Session
        do {
            started = try await open { client in
                try await client.createAccount(body: .json(.init(name: name, email: email, password: password))).created.body.json
            }
        } catch {
            if case .api(_, .invalidName?, let message, _) = error {
                throw .invalidAccount(AccountRejection(field: .name, message: .verbatim(message)))
            }
            throw error.appError
        }
        return try await session.adopt(started)
    }

    public func signOut(userID: UserID) async throws(AppError) {
        await session.signOut(userID: userID) { access in
            _ = try? await Bearer.$token.withValue(access) {
                try await requests.send(within: Self.signOutTimeLimit) { client in try await client.signOut() }
            }
        }
    }
}
