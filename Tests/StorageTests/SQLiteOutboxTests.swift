import Foundation
import Platform
import SharedKernel
import TestSupport
import Testing

@testable import Storage

/// A terminal's outbox on its replica: a write is applied and queued together, survives a
/// restart, and reaches the server once however often it is sent.
@Suite("Outbox: a replica's queued writes")
struct SQLiteOutboxTests {
    static let lessons = [Lesson(title: "One", minutes: 20), Lesson(title: "Two", minutes: 25), Lesson(title: "Three", minutes: 15)]
    static let one = Course.fixture(id: "out-1", title: "Outbox One", lessonCount: 3)
    static let two = Course.fixture(id: "out-2", title: "Outbox Two")

    /// A replica with two courses, the demo learner enrolled in the first.
    private static func replica(_ directory: TemporaryDirectory) async throws -> (AppDatabase, SQLiteOutbox, UserID) {
        let database = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })
        let store = ContractStore.sqlite(database)
        try await store.addCourses([(one, lessons), (two, nil)])
        let user = try await store.sessions.signIn(email: "demo@edugo.dev", password: "edugo-demo").id
        _ = try await store.enrollments.enroll(userID: user, courseID: "out-1")
        return (database, SQLiteOutbox(database: database), user)
    }

    @Test("a write is applied to the replica and queued in one transaction, and both survive a restart, in order")
    func recordAndRestart() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (database, outbox, user) = try await Self.replica(directory)
        let (favourite, applied) = try await outbox.record(.favourite("out-2", isFavourite: true), userID: user)
        let (mark, _) = try await outbox.record(.lesson("out-1", number: 2, done: true), userID: user)
        let (_, refused) = try await outbox.record(.lesson("out-2", number: 1, done: true), userID: user)
        #expect(applied == .applied)
        #expect(refused == .refused(.notEnrolled("out-2")), "refused here: not queued")
        #expect(favourite.time < mark.time)
        try database.close()

        let reopened = try AppDatabase.open(directory: directory.url, passwordHasher: .fast, seedCatalog: { [] })
        let again = SQLiteOutbox(database: reopened)
        #expect(try await again.pending(userID: user) == [favourite, mark])
        #expect(try await again.count(userID: user) == 2)
        let store = ContractStore.sqlite(reopened)
        #expect(try await store.favourites.favourite(userID: user, courseID: "out-2") != nil)
        #expect(try await store.enrollments.enrolledCourse(userID: user, courseID: "out-1")?.enrollment.lessonsDone == [2])
        let (later, _) = try await again.record(.name("After Restart"), userID: user)
        #expect(later.time > mark.time, "the clock keeps rising across a restart")
        #expect(later.time.node == mark.time.node, "one node name per replica")
    }

    @Test("sent to the server: answered, acknowledged, and a repeat after a lost acknowledgement changes nothing")
    func sendAndRepeat() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (_, outbox, user) = try await Self.replica(directory)
        let server = InMemoryStore(courses: [Self.one, Self.two])
        await server.setLessons(Self.lessons, of: "out-1")
        let learner = try await server.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        _ = try await server.enroll(userID: learner.id, courseID: "out-1")
        #expect(learner.id == user, "one learner id on both sides")

        _ = try await outbox.record(.favourite("out-2", isFavourite: true), userID: user)
        _ = try await outbox.record(.lesson("out-1", number: 1, done: true), userID: user)
        _ = try await outbox.record(.name("Synced Sam"), userID: user)
        // The server applies them, but its answer is lost: the queue is untouched.
        let queued = try await outbox.pending(userID: user)
        _ = await server.apply(queued, userID: user)
        #expect(try await outbox.count(userID: user) == 3)

        let sent = await outbox.send(to: server, userID: user)
        #expect(sent.answered == 3 && sent.failure == nil && sent.refused.isEmpty)
        #expect(try await outbox.count(userID: user) == 0)
        #expect(await server.storedFavourites(of: user) == ["out-2"])
        #expect(await server.storedEnrollment(user, "out-1")?.lessonsDone == [1])
        #expect(await server.storedUser(user)?.name == "Synced Sam")
        let applied = await server.writes.filter { if case .apply = $0 { true } else { false } }.count
        #expect(applied == 6, "each sent twice, applied once (the repeat answered from its record)")
    }

    @Test("a failure stops the send there: the rest stay queued, in order, for next time")
    func sendStopsAtFailure() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (_, outbox, user) = try await Self.replica(directory)
        let server = InMemoryStore(courses: [Self.two])
        _ = try await server.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        _ = try await outbox.record(.favourite("out-2", isFavourite: true), userID: user)
        _ = try await outbox.record(.name("Kept Kim"), userID: user)
        await server.setFailure(.unreachable(host: "edugo.test"))
        let failed = await outbox.send(to: server, userID: user)
        #expect(failed.answered == 0 && failed.failure == .unreachable(host: "edugo.test"))
        #expect(try await outbox.count(userID: user) == 2)
        await server.setFailure(nil)
        let sent = await outbox.send(to: server, userID: user)
        #expect(sent.answered == 2 && sent.failure == nil)
        #expect(await server.storedUser(user)?.name == "Kept Kim")
    }
}
