import EduGoAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import SharedKernel

/// The generated server protocol over the SharedKernel ports. Failures are thrown as
/// `APIFailure` (or `AppError`, mapped by `APIFailure.init`) and written by `ErrorMiddleware`.
struct EduGoAPIHandler: APIProtocol {
    let courses: any CourseRepository
    let enrollments: any EnrollmentRepository
    let favourites: any FavouritesRepository
    let profiles: any ProfileRepository
    let learning: any LearningRepository
    let operations: any OperationRepository
    let accounts: any AccountRepository
    let tokens: TokenService
    let signInLimiter: SignInRateLimiter
    let clientLimits: ClientRateLimiter
    let hashGate: HashGate
    let events: EventStreams
    /// Whether the database answers (`GET /ready`).
    let ready: @Sendable () async throws(AppError) -> Void
    /// The metrics, when this address serves them (`GET /metrics`); nil: 404.
    let metrics: ServerMetrics?
    /// Every language's words, for messages inside a successful answer.
    let languages: ServerLanguages
    /// The catalog pages kept (`PageCache`), told of a seat this server moved before its
    /// answer goes: its learner reads the page again at once, before the change log is read.
    let pages: PageCache?

    static let pageSizes = 1...100
    static let defaultPageSize = 20
    static let maximumQueryLength = 1_000

    // MARK: - Health and sessions

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: .ok))))
    }

    /// How long `/ready` waits for the database: a probe is answered within a probe's usual
    /// timeout (1 s), where a request may wait for the pool's retries.
    static let readyLimit: Duration = .milliseconds(900)

    /// A storage failure is 503 `unavailable` with `Retry-After`, as on every route.
    func getReady(_ input: Operations.GetReady.Input) async throws -> Operations.GetReady.Output {
        let ready = self.ready
        try await Limit.within(Self.readyLimit) { try await ready() }
        return .ok(.init(body: .json(.init(status: .ok))))
    }

    func getMetrics(_ input: Operations.GetMetrics.Input) async throws -> Operations.GetMetrics.Output {
        guard let metrics else { throw APIFailure.notFound }
        return .ok(.init(body: .plainText(HTTPBody(await metrics.scrape()))))
    }

    func createAccount(_ input: Operations.CreateAccount.Input) async throws -> Operations.CreateAccount.Output {
        guard case .json(let form) = input.body else { throw APIFailure.invalidRequest(.badRequest, "Send JSON.") }
        let address = try await admit(.createAccount)
        let user = try await hashGate.run(from: address) { () async throws -> User in
            try await accounts.register(name: form.name, email: form.email, password: form.password)
        }
        let issued = try await tokens.startSession(for: user.id)
        return .created(.init(body: .json(.init(issued, user: user))))
    }

    /// A sign-in is counted before its password is checked (`SignInRateLimiter`), and checked
    /// in a hashing slot of the client's turn (`HashGate`).
    func signIn(_ input: Operations.SignIn.Input) async throws -> Operations.SignIn.Output {
        guard case .json(let credentials) = input.body else { throw APIFailure.invalidRequest(.badRequest, "Send JSON.") }
        let address = try await admit(.signIn)
        let attempt = try await signInLimiter.reserve(email: credentials.email, address: address)
        let user: User
        do {
            user = try await hashGate.run(from: address) { () async throws -> User in
                try await accounts.authenticate(email: credentials.email, password: credentials.password)
            }
        } catch AppError.invalidCredentials {
            await signInLimiter.settle(attempt, .failed)
            throw APIFailure(.invalidCredentials)
        } catch {
            await signInLimiter.settle(attempt, .notMade)
            throw error
        }
        await signInLimiter.settle(attempt, .succeeded)
        let issued = try await tokens.startSession(for: user.id)
        return .created(.init(body: .json(.init(issued, user: user))))
    }

    func refreshSession(_ input: Operations.RefreshSession.Input) async throws -> Operations.RefreshSession.Output {
        guard case .json(let request) = input.body else { throw APIFailure.invalidRequest(.badRequest, "Send JSON.") }
        _ = try await admit(.refresh)
        let (userID, issued) = try await tokens.refresh(request.refreshToken)
        let user = try await call { () async throws(AppError) in try await profiles.user(id: userID) }
        return .ok(.init(body: .json(.init(issued, user: user))))
    }

    func signOut(_ input: Operations.SignOut.Input) async throws -> Operations.SignOut.Output {
        let caller = try await currentCaller()
        try await tokens.endSession(caller)
        return .noContent(.init())
    }

    // MARK: - Catalog

    func listCourses(_ input: Operations.ListCourses.Input) async throws -> Operations.ListCourses.Output {
        .ok(.init(body: .json(.init(try await catalogPage(CatalogPageRequest(input.query))))))
    }

    /// A page of the catalog: what `listCourses` answers.
    func catalogPage(_ request: CatalogPageRequest) async throws -> CatalogPageAnswer {
        try await catalogPage(try await catalogAsk(request))
    }

    /// What a request for a catalog page asks, checked: its query, where the page starts, how
    /// many courses it holds, and who asks (a bearer token is checked whatever the query).
    struct CatalogAsk: Sendable {
        var query: CatalogQuery
        var position: CatalogPosition
        var limit: Int
        var learner: UserID?

        /// The key its page is kept under (`PageCache`), when it depends on no learner.
        var publicKey: CatalogPageKey? { CatalogPageKey(query, position: position, limit: limit) }
    }

    /// `request` checked, as `catalogPage` checks it (the catalog route asks its cache between).
    func catalogAsk(_ request: CatalogPageRequest) async throws -> CatalogAsk {
        let text = request.text ?? ""
        guard text.count <= Self.maximumQueryLength else {
            throw APIFailure.invalidRequest(.badRequest, "The query is longer than \(Self.maximumQueryLength) characters.")
        }
        let limit = Int(
            min(max(request.limit ?? Int64(Self.defaultPageSize), Int64(Self.pageSizes.lowerBound)), Int64(Self.pageSizes.upperBound)))
        // The learner's own filters need to know who asks; the rest of the catalog is public.
        let learner = AuthorizationMiddleware.authorization == nil ? nil : try await currentCaller().userID
        var query = CatalogQuery.parse(text)
        if let unknown = query.unknownMessage { throw APIFailure.invalidRequest(.badRequest, unknown) }
        if let sort = request.sort {
            guard let order = CatalogSort(apiText: sort) else {
                throw APIFailure.invalidRequest(
                    .badRequest, "The order is not one the catalog has: title, price, duration, level or newest, - before it to reverse.")
            }
            query.sort = order
        }

        // Both keys are checked; `after` wins when both are given.
        let after = try request.after.map { text throws(APIFailure) in try CatalogKeyText.decode(text, sort: query.sort) }
        let before = try request.before.map { text throws(APIFailure) in try CatalogKeyText.decode(text, sort: query.sort) }
        let position: CatalogPosition = if let after { .after(after) } else if let before { .before(before) } else { .first }
        return CatalogAsk(query: query, position: position, limit: limit, learner: learner)
    }

    /// The page `ask` names, read from the store: what the catalog route writes without the
    /// generated encoding (`CoursePageJSON`).
    func catalogPage(_ ask: CatalogAsk) async throws -> CatalogPageAnswer {
        let (query, position, limit, learner) = (ask.query, ask.position, ask.limit, ask.learner)
        // One more than asked tells whether there is a page beyond this one.
        let page = try await call { () async throws(AppError) in
            try await courses.countedPage(query, for: learner, at: position, limit: limit + 1)
        }
        var rows = page.rows
        let more = rows.count > limit
        if more {
            if case .before = position { rows.removeFirst() } else { rows.removeLast() }
        }
        let next: CatalogKey?
        let previous: CatalogKey?
        switch position {
        case .first, .last: (previous, next) = (nil, more ? rows.last?.key : nil)
        case .after: (previous, next) = (rows.first?.key, more ? rows.last?.key : nil)
        case .before: (previous, next) = (more ? rows.first?.key : nil, rows.last?.key)
        }
        let backward: Bool =
            switch position {
            case .first, .after: false
            case .last, .before: true
            }
        return CatalogPageAnswer(rows: rows, next: next, previous: previous, total: page.total, readsBackward: backward)
    }

    func getCourse(_ input: Operations.GetCourse.Input) async throws -> Operations.GetCourse.Output {
        let id = try Self.courseID(input.path.courseId)
        let syllabus = try await call { () async throws(AppError) in try await courses.syllabus(of: id) }
        // A course stored before today's limits, past them, is refused as a damaged row is:
        // no answer may pass the terminal's cap.
        if let problem = CourseLimits.problem(in: syllabus) {
            throw APIFailure(.storage(.reading, detail: "course \(id.rawValue): \(problem)"))
        }
        let lessons = syllabus.lessons.map {
            Components.Schemas.Lesson(title: $0.title, minutes: Int64($0.minutes), questionCount: Int64($0.questionCount))
        }
        return .ok(.init(body: .json(.init(value1: .init(syllabus.course), value2: .init(lessons: lessons)))))
    }

    // MARK: - The learner

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let caller = try await currentCaller()
        let user = try await call { () async throws(AppError) in try await profiles.user(id: caller.userID) }
        return .ok(.init(body: .json(.init(user))))
    }

    func updateMe(_ input: Operations.UpdateMe.Input) async throws -> Operations.UpdateMe.Output {
        let caller = try await currentCaller()
        guard case .json(let change) = input.body else { throw APIFailure.invalidRequest(.badRequest, "Send JSON.") }
        let name: String
        switch ProfileName.validate(change.name) {
        case .success(let valid): name = valid
        case .failure(let rejection): throw APIFailure(.invalidName(rejection))
        }
        let user = try await call { () async throws(AppError) in try await profiles.updateName(userID: caller.userID, to: name) }
        return .ok(.init(body: .json(.init(user))))
    }

    func listEnrollments(_ input: Operations.ListEnrollments.Input) async throws -> Operations.ListEnrollments.Output {
        let caller = try await currentCaller()
        let among = try Self.courseIDs(input.query.courseIds)
        let enrolled = try await call { () async throws(AppError) in
            if let among {
                try await enrollments.enrolledCourses(userID: caller.userID, among: among)
            } else {
                try await enrollments.enrolledCourses(userID: caller.userID)
            }
        }
        let list = enrolled.map { Components.Schemas.Enrollment(course: $0.course, enrollment: $0.enrollment) }
        return .ok(.init(body: .json(.init(enrollments: list))))
    }

    /// The list's rule for one course (`EnrollmentRepository.enrolledCourse`); none is 404
    /// `not_enrolled`.
    func getEnrollment(_ input: Operations.GetEnrollment.Input) async throws -> Operations.GetEnrollment.Output {
        let caller = try await currentCaller()
        let id = try Self.courseID(input.path.courseId)
        let enrolled = try await call { () async throws(AppError) in
            try await enrollments.enrolledCourse(userID: caller.userID, courseID: id)
        }
        guard let enrolled else { throw APIFailure(.notEnrolled(id)) }
        return .ok(.init(body: .json(.init(course: enrolled.course, enrollment: enrolled.enrollment))))
    }

    func enroll(_ input: Operations.Enroll.Input) async throws -> Operations.Enroll.Output {
        let caller = try await currentCaller()
        let id = try Self.courseID(input.path.courseId)
        let enrollment = try await call { () async throws(AppError) in try await enrollments.enroll(userID: caller.userID, courseID: id) }
        pages?.seatsMoved(in: [id])
        let course = try await call { () async throws(AppError) in try await courses.course(id: id) }
        return .created(.init(body: .json(.init(course: course, enrollment: enrollment))))
    }

    func unenroll(_ input: Operations.Unenroll.Input) async throws -> Operations.Unenroll.Output {
        let caller = try await currentCaller()
        let id = try Self.courseID(input.path.courseId)
        try await call { () async throws(AppError) in try await enrollments.unenroll(userID: caller.userID, courseID: id) }
        pages?.seatsMoved(in: [id])
        return .noContent(.init())
    }

    func markLessonDone(_ input: Operations.MarkLessonDone.Input) async throws -> Operations.MarkLessonDone.Output {
        let enrolled = try await setLesson(course: input.path.courseId, lesson: input.path.lesson, done: true)
        return .ok(.init(body: .json(enrolled)))
    }

    func markLessonNotDone(_ input: Operations.MarkLessonNotDone.Input) async throws -> Operations.MarkLessonNotDone.Output {
        let enrolled = try await setLesson(course: input.path.courseId, lesson: input.path.lesson, done: false)
        return .ok(.init(body: .json(enrolled)))
    }

    func listFavourites(_ input: Operations.ListFavourites.Input) async throws -> Operations.ListFavourites.Output {
        let caller = try await currentCaller()
        let among = try Self.courseIDs(input.query.courseIds)
        let list = try await call { () async throws(AppError) in
            if let among {
                try await favourites.favourites(userID: caller.userID, among: among)
            } else {
                try await favourites.favourites(userID: caller.userID)
            }
        }
        return .ok(.init(body: .json(.init(courses: list.map(Components.Schemas.Course.init)))))
    }

    func getFavourite(_ input: Operations.GetFavourite.Input) async throws -> Operations.GetFavourite.Output {
        let caller = try await currentCaller()
        let id = try Self.courseID(input.path.courseId)
        let favourite = try await call { () async throws(AppError) in try await favourites.favourite(userID: caller.userID, courseID: id) }
        guard let favourite else {
            // Not a favourite is a resource that is not there (one deleted is gone), told apart
            // from a course that does not exist.
            _ = try await call { () async throws(AppError) in try await courses.course(id: id) }
            throw APIFailure(status: .notFound, code: .notFound, message: "\(id.rawValue) is not one of your favourites")
        }
        return .ok(.init(body: .json(.init(course: .init(favourite), favourite: true))))
    }

    func addFavourite(_ input: Operations.AddFavourite.Input) async throws -> Operations.AddFavourite.Output {
        let caller = try await currentCaller()
        let id = try Self.courseID(input.path.courseId)
        try await call { () async throws(AppError) in try await favourites.setFavourite(true, userID: caller.userID, courseID: id) }
        return .noContent(.init())
    }

    func removeFavourite(_ input: Operations.RemoveFavourite.Input) async throws -> Operations.RemoveFavourite.Output {
        let caller = try await currentCaller()
        let id = try Self.courseID(input.path.courseId)
        do {
            try await favourites.setFavourite(false, userID: caller.userID, courseID: id)
        } catch .courseNotFound {
            // Idempotent: a course that does not exist is not a favourite either.
        } catch {
            throw APIFailure(error)
        }
        return .noContent(.init())
    }

    // MARK: - Events

    /// The caller's changes and the catalog's, live (`EventStreams`), as server-sent events.
    func streamEvents(_ input: Operations.StreamEvents.Input) async throws -> Operations.StreamEvents.Output {
        let caller = try await currentCaller()
        let stream = try await events.open(for: caller, lastEventID: input.headers.lastEventID, connection: ClientConnection.current)
        let body = HTTPBody(ServerSentEventBytes(events: stream), length: .unknown, iterationBehavior: .single)
        return .ok(.init(body: .textEventStream(body)))
    }

    // MARK: - Helpers

    private func setLesson(course: String, lesson: Int64, done: Bool) async throws -> Components.Schemas.Enrollment {
        let caller = try await currentCaller()
        let id = try Self.courseID(course)
        guard let number = Int(exactly: lesson), CourseLimits.lessons.contains(number) else {
            throw APIFailure(.noSuchLesson(id, Int(clamping: lesson)))
        }
        let enrollment = try await call { () async throws(AppError) in
            try await enrollments.setLesson(number, done: done, userID: caller.userID, courseID: id)
        }
        let course = try await call { () async throws(AppError) in try await courses.course(id: id) }
        return .init(course: course, enrollment: enrollment)
    }

    /// The client's address, once its bucket for `route` has room (else 429).
    private func admit(_ route: ClientRateLimiter.Route) async throws(APIFailure) -> String {
        let address = ClientAddress.current
        if let wait = await clientLimits.admit(route, from: address) { throw .tooManyRequests(retryAfter: wait) }
        return address
    }

    /// The learner named by this request's bearer token, whose account still exists.
    func currentCaller() async throws(APIFailure) -> Caller {
        try await tokens.caller(authorization: AuthorizationMiddleware.authorization)
    }

    /// A path's course id, by SPEC's id rules.
    /// `course_ids`: 1 to `CourseLimits.idsPerAsk` valid ids, or none asked (nil). Present but
    /// empty, which the generated input reads as absent, is refused as an empty id.
    private static func courseIDs(_ texts: [String]?) throws(APIFailure) -> [CourseID]? {
        guard let texts else {
            let names = AuthorizationMiddleware.target.flatMap { URLComponents(string: $0)?.queryItems }?.map(\.name) ?? []
            if names.contains("course_ids") { _ = try courseID("") }
            return nil
        }
        guard texts.count <= CourseLimits.idsPerAsk else {
            throw .invalidRequest(.badRequest, "course_ids names at most \(CourseLimits.idsPerAsk) courses")
        }
        var ids: [CourseID] = []
        for text in texts { ids.append(try courseID(text)) }
        return ids
    }

    static func courseID(_ text: String) throws(APIFailure) -> CourseID {
        guard CourseLimits.isValidID(text) else {
            throw .invalidRequest(.badRequest, "A course id is 1–64 characters of A–Z a–z 0–9 . _ -")
        }
        return CourseID(text)
    }

    /// The learner's day in a query (`YYYY-MM-DD`, a day that exists); anything else is 400
    /// `invalid_request`.
    static func day(_ text: String) throws(APIFailure) -> LearnerDay {
        guard let day = LearnerDay(iso: text) else {
            throw .invalidRequest(.badRequest, "day must be a date of the calendar as YYYY-MM-DD, from 0001-01-01 to 9999-12-31.")
        }
        return day
    }

    /// Runs a port call, turning its `AppError` into the API's answer.
    func call<T: Sendable>(_ body: () async throws(AppError) -> T) async throws(APIFailure) -> T {
        do { return try await body() } catch { throw APIFailure(error) }
    }
}
