import AsyncHTTPClient
import EduGoAPI
import Foundation
import Logging
import NIOCore
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
    /// How long one request may take.
    let timeLimit: Duration
    /// The lessons read in this session.
    let lessons = LessonCache()
    /// The catalog pages shown, asked again with their `ETag`s; a page is 1 to 60 KiB.
    let pages = KeptAnswers<CatalogRequest, Components.Schemas.CoursePage>(capacity: 128)
    /// The courses opened, asked again with their `ETag`s; a course is 1 to 20 KiB.
    let courses = KeptAnswers<CourseID, Syllabus>(capacity: 256)

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
    ///   - startHold: what the renewal of a start that lets a known learner in waits for (the
    ///     app opens it once its first frame is drawn); nil, it goes at once.
    public init(
        server: URL, dataDirectory: URL, httpClient: RemoteHTTPClient, timeLimit: Duration = RemoteStore.defaultTimeLimit,
        logger: Logger = Logger(label: "edugo.remote", factory: { _ in SwiftLogNoOpLogHandler() }),
        now: @escaping @Sendable () -> Date = Date.init, clock: any Clock<Duration> = ContinuousClock(), language: String = "en",
        timeLimitClock: (any Clock<Duration>)? = nil, startHold: StartHold? = nil
    ) {
        self.init(
            server: server, dataDirectory: dataDirectory, httpClient: httpClient, timeLimit: timeLimit, logger: logger, now: now,
            nextToTransport: [LanguageMiddleware(code: language)], clock: clock, timeLimitClock: timeLimitClock, startHold: startHold)
    }

    /// `nextToTransport`: middlewares that see each answer as the transport gives it, before
    /// the store's own (tests count the bytes read through them).
    init(
        server: URL, dataDirectory: URL, httpClient: RemoteHTTPClient, timeLimit: Duration, logger: Logger,
        now: @escaping @Sendable () -> Date, nextToTransport: [any ClientMiddleware], clock: any Clock<Duration> = ContinuousClock(),
        timeLimitClock: (any Clock<Duration>)? = nil, startHold: StartHold? = nil
    ) {
        self.server = server
        self.clock = clock
        self.timeLimit = timeLimit
        // On the wall clock the transport's deadline is the limit too; on a clock a test holds,
        // the limit is `APIRequests.limited`'s alone (it cancels the request), and the
        // transport's deadline, which the type requires, is an hour.
        let seconds = timeLimitClock == nil ? max(1, timeLimit.components.seconds) : 3_600
        let transport = httpClient.transport(timeout: .seconds(seconds))
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
            report: { continuation.yield($0) }, hold: startHold
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

    /// Waits for a renewal of the session under way to store its token, as long as one
    /// request may take (`timeLimit`): for an app ended by a signal, which has given the
    /// terminal back already, so nobody waits on it at a prompt.
    public func settleSession() async {
        await settle(within: timeLimit)
    }

    /// Before the app ends: lets a token refresh under way finish storing its new token,
    /// waiting at most as long as log out waits for the server (2 s).
    public func finish() async {
        await settle(within: Self.signOutTimeLimit)
    }

    private func settle(within limit: Duration) async {
        // Waiting on a task's value ignores cancellation: the deadline races a stream the
        // settling finishes, and a settling still under way at the limit is left to end
        // (it may wait for another instance's lock on the session file, for as long as that
        // holds it).
        let (done, finished) = AsyncStream.makeStream(of: Void.self)
        let settling = Task { [session] in
            await session.settle()
            finished.finish()
        }
        _ = try? await withDeadline(limit, on: ContinuousClock()) { for await _ in done {} }
        settling.cancel()
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
