import Foundation
import Platform
import SharedKernel
import Storage
import Synchronization
import TestSupport
import Testing

@testable import AppShell

/// Issue 43's simulation at the app's level: three terminals of one learner, each with its
/// replica and outbox on disk and its own line to one server, a week of writes through the
/// ports remote mode runs on. Lines go down and come back in any order; up, they drop
/// acknowledgements and send batches twice; terminals are killed between a write and its send.
/// Cards are graded and undone too, online or from the replica's deck, and lesson 2's quizzes
/// answered, online or queued unchecked. Checked throughout: a
/// write reads back at once, online or not. After: every queue is empty, the server holds the
/// latest write of each item, each card has every grade that stood once, each quiz one answer a
/// terminal gave, none left unchecked, and every replica equals the server (its answers and
/// cards saved afresh).
@Suite("Sync simulation: replicas and their outboxes")
@MainActor
struct ReplicaSyncSimulationTests {
    static let course: CourseID = "sim-101"
    static let favourites: [CourseID] = ["sim-a", "sim-b", "sim-c", "sim-d"]
    static let names = ["Ana Sim", "Bo Sim", "Cai Sim", "Dee Sim"]

    @Test(
        "three terminals, a week, lines down and lossy, kills: nothing lost, every replica equals the server",
        arguments: [31, 32, 33] as [UInt64])
    func week(seed: UInt64) async throws {
        let server = InMemoryStore(
            courses: [Course.fixture(id: Self.course, title: "Simulation 101", capacity: nil, lessonCount: 3)]
                + Self.favourites.map { Course.fixture(id: $0, title: "Fav \($0.rawValue)", capacity: nil) },
            lessons: [Self.course: Self.lessons])
        let learner = try await server.signIn(email: "demo@edugo.dev", password: "edugo-demo").id
        _ = try await server.enroll(userID: learner, courseID: Self.course)
        var random = SeededRandomGenerator(seed: seed)
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        // Cards to review: every question answered before the week, a day before it starts.
        for ref in Self.questions {
            _ = try await server.answer(
                [0], to: ref, userID: learner, at: StudyTime(now: start.addingTimeInterval(-86_400), secondsFromGMT: 0))
        }
        let world = SimClock(start)
        var terminals: [SimTerminal] = []
        for index in 0..<3 {
            let terminal = try SimTerminal(index: index, server: server, seed: random.next(), world: world)
            try await terminal.signIn()
            terminals.append(terminal)
        }
        defer { for terminal in terminals { terminal.remove() } }

        do {
            for day in 1...7 {
                for terminal in terminals { terminal.link.setUp(day == 1 || Int.random(in: 0..<10, using: &random) < 3) }
                for _ in 0..<60 {
                    guard let terminal = terminals.randomElement(using: &random) else { break }
                    world.advance(by: Double(Int.random(in: 30...1_500, using: &random)))
                    try await terminal.act(using: &random, learner: learner)
                }
            }
            // Back, one line at a time, in any order; still lossy while the others wait.
            for terminal in terminals.shuffled(using: &random) {
                terminal.link.setUp(true)
                _ = await terminal.sync.send(catchingUp: true)
            }
            for terminal in terminals { terminal.link.setLossy(false) }
            for terminal in terminals { try await terminal.drain(learner) }
            for terminal in terminals { try await terminal.readEverything(learner) }
            for terminal in terminals {
                for id in terminal.link.attempted where await server.appliedOutcome(of: id, userID: learner) == nil {
                    throw SimulationFailure(description: "terminal \(terminal.index): \(id) never reached the server")
                }
            }
            try await Self.checkLatestWins(terminals.flatMap(\.link.sent), server: server, learner: learner)
            try await Self.checkGradesCountedOnce(terminals, server: server, learner: learner)
            try await Self.checkAnswers(terminals, server: server, learner: learner)
            // Enrolled again (an unenrolled course is not saved), each saves it afresh.
            if try await server.enrolledCourse(userID: learner, courseID: Self.course)?.enrollment.holdsPlace != true {
                _ = try await server.enroll(userID: learner, courseID: Self.course)
            }
            for terminal in terminals {
                try await terminal.readEverything(learner)
                await terminal.save()
            }
            for terminal in terminals { try await terminal.checkEqual(to: server, learner: learner) }
        } catch let failure as SimulationFailure {
            throw SimulationFailure(description: "seed \(seed): \(failure.description)")
        }
    }

    /// The server holds, per item, the value of the latest write it accepted.
    static func checkLatestWins(_ sent: [SyncOperation], server: InMemoryStore, learner: UserID) async throws {
        var latest: [String: SyncOperation] = [:]
        for operation in sent {
            // A refused write (a mark on a place given up meanwhile) was told, and holds nothing.
            guard let item = MergeRules.item(of: operation.kind),
                let outcome = await server.appliedOutcome(of: operation.id, userID: learner)
            else { continue }
            if case .refused = outcome { continue }
            if latest[item].map({ operation.time > $0.time }) ?? true { latest[item] = operation }
        }
        let favourites = await server.storedFavourites(of: learner)
        let done = await server.storedEnrollment(learner, course)?.lessonsDone ?? []
        let name = await server.storedUser(learner)?.name
        for operation in latest.values {
            switch operation.kind {
            case .favourite(let id, let on): try check(favourites.contains(id) == on, "favourite \(id) is not the latest write's \(on)")
            case .lesson(_, let number, let done_):
                try check(done.contains(number) == done_, "lesson \(number) is not the latest write's \(done_)")
            case .name(let latestName): try check(name == latestName, "the name is \(name ?? "none"), the latest write's \(latestName)")
            default: break
            }
        }
    }
}

/// One terminal: its replica on disk, its outbox's sender, the ports over them, its line.
@MainActor
final class SimTerminal {
    let index: Int
    let link: SimulatedLink
    private let directory = TemporaryDirectory()
    /// The terminal's clock: the world's, skewed its own way (the hybrid clock orders them).
    let clock: @Sendable () -> Date
    private(set) var sync: OutboxSync
    private(set) var database: AppDatabase
    private var ports: ReplicaPorts
    private(set) var learning: ReplicaLearning
    private var saver: OfflineSaver
    private let status = SyncStatus()
    private var user: User?
    /// Grades given here that stood (undone ones taken off), per card.
    var grades: [QuestionRef: Int] = [:]
    /// The choices answered here, per quiz (the first given stands; each was a candidate).
    var given: [QuestionRef: Set<Set<Int>>] = [:]

    init(index: Int, server: InMemoryStore, seed: UInt64, world: SimClock) throws {
        self.index = index
        link = SimulatedLink(server: server, seed: seed)
        let skew = TimeInterval([0, -90, 300][index % 3])
        clock = { world.now.addingTimeInterval(skew) }
        (database, sync, ports, learning, saver) = try Self.open(directory, link: link, clock: clock, status: status)
    }

    private static func open(
        _ directory: TemporaryDirectory, link: SimulatedLink, clock: @escaping @Sendable () -> Date, status: SyncStatus
    ) throws -> (
        AppDatabase, OutboxSync, ReplicaPorts, ReplicaLearning, OfflineSaver
    ) {
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: PasswordHasher(rounds: 1_000), seedCatalog: { [] })
        let outbox = SQLiteOutbox(database: database, now: clock)
        let replica = SQLiteReplica(database: database)
        let sync = OutboxSync(outbox: outbox, server: link, refresh: LearningRefresh(server: link, replica: replica)) { report in
            status.take(report)
        }
        let ports = ReplicaPorts(
            server: .init(
                restore: { [link] known throws(AppError) in
                    // As `RemoteStore.restoreSession(knowing:)`: the known learner, while the line is down.
                    do throws(AppError) { return try await link.restoreSession() } catch .unreachable(let host) {
                        guard let known else { throw .unreachable(host: host) }
                        return known
                    }
                },
                courses: link, enrollments: link, favourites: link, profiles: link, sessions: link),
            seen: SeenCourses(), database: database, outbox: outbox, sync: sync)
        // Saved at set points (`save`), not in the background: the simulation stays seeded.
        let courses = ReplicaCourses(server: link, seen: SeenCourses(), replica: replica, here: SQLiteCourseRepository(database: database))
        let learning = ReplicaLearning(
            server: link, courses: courses, replica: replica, here: SQLiteLearningRepository(database: database), outbox: outbox,
            sync: sync)
        let saver = OfflineSaver(
            enrolled: { [link] id throws(AppError) in try await link.server.enrolledCourses(userID: id) }, courses: courses,
            learning: learning, server: link, replica: replica, report: { _ in })
        return (database, sync, ports, learning, saver)
    }

    func remove() {
        try? database.close()
        directory.remove()
    }

    func signIn() async throws {
        user = try await ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        try await readEverything(user?.id ?? UserID(0))
        // The courses' rows, as the catalog would have shown them.
        let courses = ReplicaCourses(
            server: link, seen: SeenCourses(), replica: SQLiteReplica(database: database), here: SQLiteCourseRepository(database: database))
        for id in [ReplicaSyncSimulationTests.course] + ReplicaSyncSimulationTests.favourites { _ = try await courses.syllabus(of: id) }
        await save()
    }

    /// The enrolled courses saved for offline, as the app does after sign-in and each catch-up.
    func save() async {
        guard let user else { return }
        await saver.start(user.id)
        await saver.finished()
    }

    /// Killed and started again: the replica and its queue are what the disk has; the learner
    /// comes back, from the replica while the line is down.
    func restart() async throws {
        try database.close()
        (database, sync, ports, learning, saver) = try Self.open(directory, link: link, clock: clock, status: status)
        guard try await ports.restoreSession() != nil else {
            throw SimulationFailure(description: "terminal \(index): no learner after a restart")
        }
    }

    /// Whether writes wait to be sent: the replica answers then, with them in it (else the
    /// server does, merged with the others' writes, a later one elsewhere winning: checked at
    /// the end).
    private func waiting(_ learner: UserID) async throws -> Bool {
        try await SQLiteOutbox(database: database).count(userID: learner) > 0
    }

    /// One write (or a read), which reads back at once while writes wait; a kill now and then
    /// right after it.
    func act(using random: inout SeededRandomGenerator, learner: UserID) async throws {
        let course = ReplicaSyncSimulationTests.course
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<25:
            let id = ReplicaSyncSimulationTests.favourites.randomElement(using: &random) ?? course
            let on = Bool.random(using: &random)
            try await ports.setFavourite(on, userID: learner, courseID: id)
            let waits = try await waiting(learner)
            let shown = try await ports.favourite(userID: learner, courseID: id) != nil
            try check(!waits || shown == on, "terminal \(index): favourite \(id) not read back")
        case 25..<50:
            let number = Int.random(in: 1...3, using: &random)
            let done = Bool.random(using: &random)
            let ports = ports
            var marked: Enrollment?
            switch await Self.outcome({ () async throws(AppError) in
                try await ports.setLesson(number, done: done, userID: learner, courseID: course)
            }) {
            case .success(let enrollment): marked = enrollment
            case .failure(.notEnrolled): marked = nil
            case .failure(let error): throw error
            }
            let waits = try await waiting(learner)
            let again = try await ports.enrolledCourse(userID: learner, courseID: course)
            if let marked {
                try check(marked.lessonsDone.contains(number) == done, "terminal \(index): lesson \(number) not marked")
                try check(
                    !waits || again?.enrollment.lessonsDone.contains(number) == done, "terminal \(index): lesson \(number) not read back")
            } else {
                try check(!waits || again?.enrollment.holdsPlace != true, "terminal \(index): refused, yet holding a place")
            }
        case 50..<60:
            let name = ReplicaSyncSimulationTests.names.randomElement(using: &random) ?? "Sim"
            try check(try await ports.updateName(userID: learner, to: name).name == name, "terminal \(index): name not kept")
            let waits = try await waiting(learner)
            let shown = try await ports.user(id: learner).name
            try check(!waits || shown == name, "terminal \(index): name not read back")
        case 60..<74:
            try await review(using: &random, learner: learner)
        case 74..<80:
            try await answer(using: &random, learner: learner)
        case 80..<85:
            let ports = ports
            switch await Self.outcome({ () async throws(AppError) in try await ports.unenroll(userID: learner, courseID: course) }) {
            case .success, .failure(.notEnrolled): break  // given up already: nothing queued
            case .failure(let error): throw error
            }
            let waits = try await waiting(learner)
            let shown = try await ports.enrolledCourse(userID: learner, courseID: course)
            try check(!waits || shown?.enrollment.holdsPlace != true, "terminal \(index): still holding a place")
        case 85..<92:
            let ports = ports
            switch await Self.outcome({ () async throws(AppError) in try await ports.enroll(userID: learner, courseID: course) }) {
            case .success, .failure(.refused(.alreadyEnrolled)): break  // enrolled already: nothing new
            case .failure(let error): throw error
            }
            let waits = try await waiting(learner)
            let shown = try await ports.enrolledCourse(userID: learner, courseID: course)
            try check(!waits || shown?.enrollment.holdsPlace == true, "terminal \(index): no place")
        default:
            try await readEverything(learner)
        }
        if Int.random(in: 0..<12, using: &random) == 0 { try await restart() }
    }

    /// What `body` gave, or the error it threw, to switch on.
    static func outcome<Value>(_ body: () async throws(AppError) -> Value) async -> Result<Value, AppError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// The learner's lists and name through the ports: offline, from the replica.
    func readEverything(_ learner: UserID) async throws {
        _ = try await ports.favourites(userID: learner)
        _ = try await ports.enrolledCourses(userID: learner)
        _ = try await ports.user(id: learner)
    }

    /// Sends until nothing waits.
    func drain(_ learner: UserID) async throws {
        let outbox = SQLiteOutbox(database: database)
        for _ in 0..<20 where try await outbox.count(userID: learner) > 0 {
            _ = await sync.send(catchingUp: true)
        }
        let left = try await outbox.count(userID: learner)
        try check(left == 0, "terminal \(index): \(left) writes never sent")
        try check(status.waiting == 0, "terminal \(index): the header still says ⇡ \(status.waiting)")
    }

    /// The replica holds what the server holds.
    func checkEqual(to server: InMemoryStore, learner: UserID) async throws {
        let course = ReplicaSyncSimulationTests.course
        let cards = try await SQLiteLearningRepository(database: database).cards(userID: learner, courseID: course)
        try check(cards == (try await server.cards(userID: learner, courseID: course)), "terminal \(index): cards \(cards)")
        let answers = Set(try await SQLiteLearningRepository(database: database).answers(userID: learner, courseID: course))
        try check(answers == Set(try await server.answers(userID: learner, courseID: course)), "terminal \(index): answers \(answers)")
        let favourites = Set(try await SQLiteFavouritesRepository(database: database).favourites(userID: learner).map(\.id))
        try check(favourites == (await server.storedFavourites(of: learner)), "terminal \(index): favourites \(favourites)")
        let here = try await SQLiteEnrollmentRepository(database: database).enrolledCourse(userID: learner, courseID: course)
        let there = try await server.enrolledCourse(userID: learner, courseID: course)
        try check(
            here?.enrollment.lessonsDone == there?.enrollment.lessonsDone,
            "terminal \(index): lessons \(String(describing: here?.enrollment.lessonsDone))")
        try check(
            here?.enrollment.status == there?.enrollment.status,
            "terminal \(index): \(String(describing: here?.enrollment.status)), the server \(String(describing: there?.enrollment.status))")
        let name = try await SQLiteProfileRepository(database: database).user(id: learner).name
        try check(name == (await server.storedUser(learner)?.name), "terminal \(index): name \(name)")
    }
}

struct SimulationFailure: Error, CustomStringConvertible {
    let description: String
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    guard condition else { throw SimulationFailure(description: message()) }
}

/// A terminal's clock, moved on by the simulation.
final class SimClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
