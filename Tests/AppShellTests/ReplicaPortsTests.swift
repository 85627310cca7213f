import Foundation
import Platform
import Presentation
import SharedKernel
import Storage
import TestSupport
import Testing

@testable import AppShell

/// Remote mode over its replica: writes made while the server is out of reach are kept,
/// counted and sent once; the server's refusal reaches the learner; the replica answers reads.
@Suite("Replica ports: remote mode's writes kept offline")
@MainActor
struct ReplicaPortsTests {
    static let one = Course.fixture(id: "rp-1", title: "Ports One", capacity: nil, lessonCount: 3)
    static let two = Course.fixture(id: "rp-2", title: "Ports Two", capacity: 1, enrolledCount: 0)
    static let lessons = [Lesson(title: "A", minutes: 10), Lesson(title: "B", minutes: 10), Lesson(title: "C", minutes: 10)]
    static let offline = AppError.unreachable(host: "edugo.test:8080")

    /// A server with two courses, the demo learner enrolled in the first; a replica and its
    /// outbox in `directory`; the ports over both; the reports the sync gave.
    @MainActor
    final class Rig {
        let server: InMemoryStore
        let database: AppDatabase
        let outbox: SQLiteOutbox
        let sync: OutboxSync
        let ports: ReplicaPorts
        let courses: ReplicaCourses
        let status = SyncStatus()
        var told: [StatusMessage] = []

        init(_ directory: TemporaryDirectory) async throws {
            server = InMemoryStore(courses: [ReplicaPortsTests.one, ReplicaPortsTests.two], lessons: ["rp-1": ReplicaPortsTests.lessons])
            database = try AppDatabase.open(
                directory: directory.url, passwordHasher: PasswordHasher(rounds: 1_000), seedCatalog: { [] })
            outbox = SQLiteOutbox(database: database)
            let status = status
            sync = OutboxSync(outbox: outbox, server: server) { report in status.take(report) }
            let seen = SeenCourses()
            ports = ReplicaPorts(
                server: .init(
                    restore: { [server] _ throws(AppError) in try await server.restoreSession() }, courses: server, enrollments: server,
                    favourites: server, profiles: server, sessions: server),
                seen: seen, database: database, outbox: outbox, sync: sync)
            courses = ReplicaCourses(
                server: server, seen: seen, replica: SQLiteReplica(database: database), here: SQLiteCourseRepository(database: database))
        }
    }

    @Test("offline: a favourite, a lesson mark and a name are kept, counted, read back, and sent once when the server is back")
    func offlineWritesSync() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory)
        rig.status.tell = { [rig] in rig.told.append($0) }
        let user = try await rig.ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        _ = try await rig.server.enroll(userID: user.id, courseID: "rp-1")
        // Online, the learner's lists were read once: the replica holds them.
        #expect(try await rig.ports.enrolledCourses(userID: user.id).map(\.id) == ["rp-1"])
        #expect(try await rig.ports.favourites(userID: user.id).isEmpty)
        _ = try await rig.courses.course(id: "rp-2")

        await rig.server.setFailure(Self.offline)
        try await rig.ports.setFavourite(true, userID: user.id, courseID: "rp-2")
        let marked = try await rig.ports.setLesson(2, done: true, userID: user.id, courseID: "rp-1")
        let renamed = try await rig.ports.updateName(userID: user.id, to: "Offline Olga")
        #expect(marked.lessonsDone == [2])
        #expect(renamed.name == "Offline Olga")
        #expect(rig.status.waiting == 3)
        #expect(rig.status.headerText(accessible: false) == "⇡ \(3) to sync")

        // Read back while the server is out of reach: the replica, with the writes in it.
        #expect(try await rig.ports.favourites(userID: user.id).map(\.id) == ["rp-2"])
        #expect(try await rig.ports.enrolledCourse(userID: user.id, courseID: "rp-1")?.enrollment.lessonsDone == [2])
        #expect(try await rig.ports.user(id: user.id).name == "Offline Olga")
        #expect(await rig.server.storedFavourites(of: user.id).isEmpty, "nothing reached the server")

        await rig.server.setFailure(nil)
        let tried = await rig.server.writes.count
        let sent = await rig.sync.send()
        #expect(sent?.answered == 3 && sent?.refused.isEmpty == true)
        #expect(rig.status.waiting == 0)
        #expect(rig.status.headerText(accessible: false) == nil)
        #expect(await rig.server.storedFavourites(of: user.id) == ["rp-2"])
        #expect(await rig.server.storedEnrollment(user.id, "rp-1")?.lessonsDone == [2])
        #expect(await rig.server.storedUser(user.id)?.name == "Offline Olga")
        #expect(await rig.sync.send()?.answered == 0, "sent once: nothing waits")
        let applied = await rig.server.writes.dropFirst(tried).filter { if case .apply = $0 { true } else { false } }.count
        #expect(applied == 3, "each applied once, after the tries that could not reach it")
        #expect(rig.told.isEmpty)
    }

    /// Another learner enrolls in the one-seat course.
    private static func takeLastSeat(_ server: InMemoryStore) async throws {
        let other = try await server.createAccount(name: "Seat Taker", email: "seat@example.org", password: "seat-taker-1")
        _ = try await server.enroll(userID: other.id, courseID: "rp-2")
    }

    @Test("online: the server's refusal is the write's error, nothing waits, and the replica takes the server's word")
    func refusalOnline() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory)
        let user = try await rig.ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        _ = try await rig.ports.enrolledCourses(userID: user.id)
        _ = try await rig.courses.course(id: "rp-2")  // seen with its seat free
        // Someone else takes the last seat meanwhile.
        try await Self.takeLastSeat(rig.server)

        await #expect(throws: AppError.refused(.courseFull(title: "Ports Two"))) {
            _ = try await rig.ports.enroll(userID: user.id, courseID: "rp-2")
        }
        #expect(rig.status.waiting == 0)
        #expect(try await rig.outbox.count(userID: user.id) == 0)
        #expect(try await SQLiteEnrollmentRepository(database: rig.database).enrolledCourse(userID: user.id, courseID: "rp-2") == nil)
    }

    @Test("offline: a write on a course never seen needs the server, says so, and queues nothing")
    func unseenCourseOffline() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory)
        let user = try await rig.ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        await rig.server.setFailure(Self.offline)
        await #expect(throws: Self.offline) {
            try await rig.ports.setFavourite(true, userID: user.id, courseID: "rp-2")
        }
        await #expect(throws: Self.offline, "the learner's lists were never read: no empty list is made up") {
            _ = try await rig.ports.favourites(userID: user.id)
        }
        #expect(try await rig.outbox.count(userID: user.id) == 0)
    }

    @Test("an older queued write the server refuses is told, once, when it is sent")
    func queuedRefusalTold() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let rig = try await Rig(directory)
        rig.status.tell = { [rig] in rig.told.append($0) }
        let user = try await rig.ports.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        _ = try await rig.ports.enrolledCourses(userID: user.id)
        _ = try await rig.courses.course(id: "rp-2")
        await rig.server.setFailure(Self.offline)
        _ = try await rig.ports.enroll(userID: user.id, courseID: "rp-2")
        #expect(rig.status.waiting == 1)
        await rig.server.setFailure(nil)
        try await Self.takeLastSeat(rig.server)

        _ = await rig.sync.send()
        #expect(rig.status.waiting == 0)
        #expect(rig.told == [.error("Not synced: \(AppError.refused(.courseFull(title: "Ports Two")).userMessage)")])
        #expect(try await rig.ports.enrolledCourses(userID: user.id).isEmpty, "the server's word again: no place")
    }
}
