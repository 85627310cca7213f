import Foundation
import SharedKernel
import Synchronization
import TestSupport

/// A terminal's line to the server: down (every call cannot reach it), or up and, while
/// `lossy`, losing one batch's acknowledgement in five after the server applied it and
/// sending one batch in eight twice.
final class SimulatedLink: CourseRepository, EnrollmentRepository, FavouritesRepository, ProfileRepository, SessionRepository,
    OperationRepository, Sendable
{
    private struct State {
        var up = true
        var lossy = true
        var random: SeededRandomGenerator
        var sent: [SyncOperation] = []
        var attempted: Set<OperationID> = []
    }

    let server: InMemoryStore
    private let state: Mutex<State>
    static let down = AppError.unreachable(host: "sim.edugo.test")

    init(server: InMemoryStore, seed: UInt64) {
        self.server = server
        state = Mutex(State(random: SeededRandomGenerator(seed: seed)))
    }

    func setUp(_ up: Bool) { state.withLock { $0.up = up } }
    var isUp: Bool { state.withLock { $0.up } }
    func setLossy(_ lossy: Bool) { state.withLock { $0.lossy = lossy } }
    /// Every operation that reached the server.
    var sent: [SyncOperation] { state.withLock { $0.sent } }
    /// Every operation the terminal tried to send, the line up or not.
    var attempted: Set<OperationID> { state.withLock { $0.attempted } }

    func line() throws(AppError) {
        guard state.withLock({ $0.up }) else { throw Self.down }
    }

    func apply(_ operations: [SyncOperation], userID: UserID) async -> (outcomes: [OperationOutcome?], failure: AppError?) {
        let none = [OperationOutcome?](repeating: nil, count: operations.count)
        let (up, drop, twice) = state.withLock { state in
            state.sent += state.up ? operations : []
            state.attempted.formUnion(operations.map(\.id))
            return (
                state.up, state.lossy && Int.random(in: 0..<5, using: &state.random) == 0,
                state.lossy && Int.random(in: 0..<8, using: &state.random) == 0
            )
        }
        guard up else { return (none, Self.down) }
        var answer = await server.apply(operations, userID: userID)
        if twice { answer = await server.apply(operations, userID: userID) }
        return drop ? (none, Self.down) : answer
    }

    func apply(_ operation: SyncOperation, userID: UserID) async throws(AppError) -> OperationOutcome {
        try line()
        state.withLock { $0.sent.append(operation) }
        return try await server.apply(operation, userID: userID)
    }

    func page(_ query: CatalogQuery, for learner: UserID?, at position: CatalogPosition, limit: Int) async throws(AppError) -> [CatalogRow]
    {
        try line()
        return try await server.page(query, for: learner, at: position, limit: limit)
    }

    func count(_ query: CatalogQuery, for learner: UserID?) async throws(AppError) -> CatalogCount {
        try line()
        return try await server.count(query, for: learner)
    }

    func course(id: CourseID) async throws(AppError) -> Course {
        try line()
        return try await server.course(id: id)
    }

    func syllabus(of id: CourseID) async throws(AppError) -> Syllabus {
        try line()
        return try await server.syllabus(of: id)
    }

    func enroll(userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        try line()
        return try await server.enroll(userID: userID, courseID: courseID)
    }

    func unenroll(userID: UserID, courseID: CourseID) async throws(AppError) {
        try line()
        try await server.unenroll(userID: userID, courseID: courseID)
    }

    func setLesson(_ number: Int, done: Bool, userID: UserID, courseID: CourseID) async throws(AppError) -> Enrollment {
        try line()
        return try await server.setLesson(number, done: done, userID: userID, courseID: courseID)
    }

    func enrolledCourses(userID: UserID) async throws(AppError) -> [EnrolledCourse] {
        try line()
        return try await server.enrolledCourses(userID: userID)
    }

    func enrolledCourse(userID: UserID, courseID: CourseID) async throws(AppError) -> EnrolledCourse? {
        try line()
        return try await server.enrolledCourse(userID: userID, courseID: courseID)
    }

    func enrolledCourses(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [EnrolledCourse] {
        try line()
        return try await server.enrolledCourses(userID: userID, among: ids)
    }

    func setFavourite(_ isFavourite: Bool, userID: UserID, courseID: CourseID) async throws(AppError) {
        try line()
        try await server.setFavourite(isFavourite, userID: userID, courseID: courseID)
    }

    func favourites(userID: UserID) async throws(AppError) -> [Course] {
        try line()
        return try await server.favourites(userID: userID)
    }

    func favourite(userID: UserID, courseID: CourseID) async throws(AppError) -> Course? {
        try line()
        return try await server.favourite(userID: userID, courseID: courseID)
    }

    func favourites(userID: UserID, among ids: [CourseID]) async throws(AppError) -> [Course] {
        try line()
        return try await server.favourites(userID: userID, among: ids)
    }

    func user(id: UserID) async throws(AppError) -> User {
        try line()
        return try await server.user(id: id)
    }

    func updateName(userID: UserID, to name: String) async throws(AppError) -> User {
        try line()
        return try await server.updateName(userID: userID, to: name)
    }

    func restoreSession() async throws(AppError) -> User? {
        try line()
        return try await server.restoreSession()
    }

    func signIn(email: String, password: String) async throws(AppError) -> User {
        try line()
        return try await server.signIn(email: email, password: password)
    }

    func createAccount(name: String, email: String, password: String) async throws(AppError) -> User {
        try line()
        return try await server.createAccount(name: name, email: email, password: password)
    }

    func signOut(userID: UserID) async throws(AppError) {
        try line()
        try await server.signOut(userID: userID)
    }
}
