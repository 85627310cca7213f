import Foundation
import Platform
import SharedKernel
import Storage
import Synchronization
import TestSupport
import Testing

@testable import AppShell

/// Issue 43: a remote-mode start draws its first frame from disk. The catalog page the last
/// start opened on is kept in the replica; the next start shows it, with the replica's marks,
/// while the server is asked behind it, and reads again only when the server's differs.
@Suite("Replica: the first catalog page from disk")
@MainActor
struct OpeningPageTests {
    static let courses = (1...5).map { Course.fixture(id: CourseID("op-\($0)"), title: "Opening \($0)", capacity: 50) }
    static let offline = AppError.unreachable(host: "edugo.test:8080")

    /// One run of the app over the same replica: its own opening, its ports.
    @MainActor
    final class Run {
        let opening: OpeningPage
        /// How often the run said its first frame needs the server (none kept to draw it from).
        let serverNeeded = Counter()
        let courses: ReplicaCourses
        let ports: ReplicaPorts
        let changes = ToldChanges()
        let searched = SearchedLog()

        /// `openingRows`: the catalog's page size (the tests' pages are of 3).
        init(server: InMemoryStore, database: AppDatabase, openingRows: Int = 3) {
            let serverNeeded = serverNeeded
            let opening = OpeningPage(serverNeeded: { serverNeeded.add(1) })
            self.opening = opening
            let replica = SQLiteReplica(database: database)
            let outbox = SQLiteOutbox(database: database)
            let sync = OutboxSync(outbox: outbox, server: server, refresh: LearningRefresh(server: server, replica: replica)) { _ in }
            let seen = SeenCourses()
            let (changes, searched) = (changes, searched)
            courses = ReplicaCourses(
                server: server, seen: seen, replica: replica, here: SQLiteCourseRepository(database: database),
                searching: { searched.items.append($0) }, opening: opening, openingRows: openingRows, changed: { changes.append($0) })
            ports = ReplicaPorts(
                server: .init(
                    restore: { [server] _ throws(AppError) in try await server.restoreSession() }, courses: server, enrollments: server,
                    favourites: server, profiles: server, sessions: server),
                seen: seen, database: database, outbox: outbox, sync: sync, opening: opening)
        }

        var told: [Change] { changes.items }
    }

    static func arrange(_ directory: TemporaryDirectory) async throws -> (InMemoryStore, AppDatabase, UserID) {
        let server = InMemoryStore(courses: courses)
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: PasswordHasher(rounds: 1_000), seedCatalog: { [] })
        let first = Run(server: server, database: database)
        let user = try await first.ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        try await first.ports.setFavourite(true, userID: user.id, courseID: "op-2")
        _ = try await first.ports.enrolledCourses(userID: user.id)
        // As the catalog reads them: the page, and its count (the two kept together).
        let shown = try await first.courses.page(CatalogQuery.parse(""), for: user.id, at: .first, limit: 3)
        #expect(shown.map(\.course.id) == ["op-1", "op-2", "op-3"], "the first start: the server's page")
        let asked = await server.messages.count
        #expect(try await first.courses.count(CatalogQuery.parse(""), for: user.id) == .exactly(5))
        await first.opening.settled()
        #expect(await server.messages.count == asked + 1, "kept from what the catalog read: nothing asked again")
        #expect(first.serverNeeded.value == 1, "none kept: the first frame needs the server, which is told once")
        return (server, database, user.id)
    }

    @Test(
        "the next start shows the kept page, its count and its marks while the server is held; the same page from the server reads nothing again"
    )
    func drawnFromDisk() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (server, database, user) = try await Self.arrange(directory)
        let before = await server.messages.count
        let gate = Gate()
        await server.setGate(gate)

        let run = Run(server: server, database: database)
        let everything = CatalogQuery.parse("")
        let page = try await run.courses.page(everything, for: user, at: .first, limit: 3)
        #expect(page.map(\.course.id) == ["op-1", "op-2", "op-3"], "drawn while the server is held")
        #expect(try await run.courses.count(everything, for: user) == .exactly(5))
        let favourites = try await run.ports.favourites(userID: user, among: page.map(\.course.id))
        #expect(favourites.map(\.id) == ["op-2"], "the marks on it, the replica's")
        #expect(await gate.arrivals <= 1, "at most the server's page, asked behind the frame")

        #expect(run.serverNeeded.value == 0, "drawn from disk: the server is not needed for the first frame")

        await gate.open()
        await run.opening.settled()
        #expect(run.told.isEmpty, "the server's page is the one drawn: nothing read again")
        let asked = await server.messages.dropFirst(before)
        #expect(asked.contains { if case .page = $0 { true } else { false } }, "the server was asked behind the frame")
        #expect(!asked.contains { if case .favouritesAmong = $0 { true } else { false } })
        let later = try await run.courses.page(everything, for: user, at: .first, limit: 3)
        #expect(later == page)
        #expect(await server.messages.count > before + asked.count, "once answered, the server's again")
    }

    @Test("the count asked before the page (the catalog asks both at once) is the kept one too: the server counts nothing for the frame")
    func countedFirst() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (server, database, user) = try await Self.arrange(directory)
        let before = await server.messages.count

        // The server's pages held: what is asked behind the frame waits, and a count asked
        // of the server would be seen (counts are not held, so a wrong answer cannot hang).
        let gate = Gate()
        await server.setGate(gate) { if case .page = $0 { true } else { false } }

        let run = Run(server: server, database: database)
        let everything = CatalogQuery.parse("")
        #expect(try await run.courses.count(everything, for: user) == .exactly(5))
        #expect(try await run.courses.page(everything, for: user, at: .first, limit: 3).map(\.course.id) == ["op-1", "op-2", "op-3"])
        let drawing = await server.messages.dropFirst(before)
        #expect(!drawing.contains { if case .count = $0 { true } else { false } }, "no count asked of the server: \(drawing)")

        await gate.open()
        await run.opening.settled()
        let asked = await server.messages.dropFirst(before)
        #expect(asked.contains { if case .page = $0 { true } else { false } }, "the server's page asked behind the frame")
        #expect(run.told.isEmpty)
    }

    @Test("a page changed on the server since: drawn as kept, then the catalog is told to read again, and reads the server's")
    func changedSince() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (server, database, user) = try await Self.arrange(directory)
        _ = try await server.enroll(userID: user, courseID: "op-1")

        let run = Run(server: server, database: database)
        let everything = CatalogQuery.parse("")
        let drawn = try await run.courses.page(everything, for: user, at: .first, limit: 3)
        await run.opening.settled()
        #expect(run.told == [.catalog])
        let read = try await run.courses.page(everything, for: user, at: .first, limit: 3)
        #expect(read.first?.course.enrolledCount == (drawn.first?.course.enrolledCount ?? 0) + 1, "the seat taken meanwhile")

        let next = Run(server: server, database: database)
        #expect(try await next.courses.page(everything, for: user, at: .first, limit: 3) == read, "the server's page kept for the next")
    }

    @Test("a start with the server out of reach: the kept page drawn, then read again from the courses saved here, which say so")
    func startedOffline() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (server, database, user) = try await Self.arrange(directory)
        await server.setFailure(Self.offline)

        let run = Run(server: server, database: database)
        let everything = CatalogQuery.parse("")
        #expect(try await run.courses.page(everything, for: user, at: .first, limit: 3).count == 3)
        await run.opening.settled()
        #expect(run.told == [.catalog], "the server could not be reached: the catalog reads again")
        _ = try await run.courses.page(everything, for: user, at: .first, limit: 3)
        #expect(run.searched.items.last == .some(3), "the saved courses searched: the kept page's")
    }

    @Test("a start with writes queued before: the server is needed before the first frame (the writes go first), and told so")
    func queuedWritesNeedTheServer() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (server, database, user) = try await Self.arrange(directory)
        let quiet = Run(server: server, database: database)
        #expect(try await quiet.ports.restoreSession()?.id == user)
        #expect(quiet.serverNeeded.value == 0, "nothing queued: the first frame is drawn from disk")

        _ = try await quiet.courses.page(CatalogQuery.parse(""), for: user, at: .first, limit: 3)
        await server.setFailure(Self.offline)
        try await quiet.ports.setFavourite(false, userID: user, courseID: "op-2")
        await server.setFailure(nil)

        let run = Run(server: server, database: database)
        #expect(try await run.ports.restoreSession()?.id == user)
        #expect(run.serverNeeded.value == 1, "told before the queued favourite was sent")
        #expect(await server.storedFavourites(of: user).isEmpty, "sent")
    }

    @Test("a kept page shorter than the catalog's page, not every match, is not drawn: the server's page and count are kept in its place")
    func keptShorterThanPage() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (server, database, user) = try await Self.arrange(directory)
        let everything = CatalogQuery.parse("")

        let run = Run(server: server, database: database, openingRows: 4)
        #expect(try await run.courses.count(everything, for: user) == .exactly(5))
        #expect(try await run.courses.page(everything, for: user, at: .first, limit: 4).count == 4)
        #expect(!run.opening.drawsFromDisk, "the marks on the server's rows are the server's")
        await run.opening.settled()
        let kept = try await SQLiteReplica(database: database).opening(everything, learner: user)
        #expect(kept?.rows.count == 4, "the catalog's page kept for the next start")
        #expect(run.told.isEmpty)
    }

    @Test("every match kept, and more on the server since: the page that replaces it has the catalog's rows, not the kept count")
    func moreSinceEveryMatch() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (server, database, user) = try await Self.arrange(directory)
        let everything = CatalogQuery.parse("")
        let first = Run(server: server, database: database, openingRows: 10)
        _ = try await first.courses.page(everything, for: user, at: .first, limit: 10)
        _ = try await first.courses.count(everything, for: user)
        await first.opening.settled()
        #expect(try await SQLiteReplica(database: database).opening(everything, learner: user)?.rows.count == 5, "every match kept")
        await server.addCourses((6...12).map { Course.fixture(id: CourseID("op-\($0)"), title: "Opening \($0)") })

        let run = Run(server: server, database: database, openingRows: 10)
        #expect(try await run.courses.page(everything, for: user, at: .first, limit: 10).count == 5, "every match, as kept")
        await run.opening.settled()
        #expect(run.told == [.catalog])
        let kept = try await SQLiteReplica(database: database).opening(everything, learner: user)
        #expect(kept?.rows.count == 10, "the catalog's page of the twelve, not the five rows kept")
        #expect(kept?.total == .exactly(12))
    }

    @Test("a start that asks more rows than were kept reads the server's")
    func tooFewKept() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (server, database, user) = try await Self.arrange(directory)
        let before = await server.messages.count
        let run = Run(server: server, database: database)
        #expect(try await run.courses.page(CatalogQuery.parse(""), for: user, at: .first, limit: 4).count == 4)
        #expect(await server.messages.count > before)
        await run.opening.settled()
        #expect(run.told.isEmpty)
    }
}

/// The changes the replica told, in order.
final class ToldChanges: Sendable {
    private let told = Mutex<[Change]>([])

    func append(_ change: Change) { told.withLock { $0.append(change) } }

    var items: [Change] { told.withLock { $0 } }
}
