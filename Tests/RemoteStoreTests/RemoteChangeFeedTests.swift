import Foundation
import Platform
import RemoteStore
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

/// The remote store's news: the server's event stream as `ChangeNews`, for changes made by
/// any client, resumed over a restart of the server, ended with the sign-in.
@Suite("Remote change feed")
struct RemoteChangeFeedTests {
    @Test("the news say what another client changed for this learner, and the public seats, but not another learner's own changes")
    func newsOfOtherClients() async throws {
        let (server, store, learner, clock, client) = try await makeSUT()
        defer { client.remove() }
        var news = store.news(for: learner.id).makeAsyncIterator()
        let opened = await news.next()
        let (elsewhere, _) = try await HTTPClient(baseURL: server.url).signedIn()
        let created = try await HTTPClient(baseURL: server.url).send(
            "POST", "/v1/accounts", json: ["name": "Other Learner", "email": "other@example.com", "password": "password-1"])
        var other = HTTPClient(baseURL: server.url)
        other.token = created.json["access_token"] as? String

        _ = try await elsewhere.send("PUT", "/v1/me/favourites/feed-1")
        _ = try await other.send("PUT", "/v1/me/favourites/feed-1")
        _ = try await other.send("PUT", "/v1/me/enrollments/feed-1")
        _ = try await elsewhere.send("PATCH", "/v1/me", json: ["name": "Renamed Learner"])
        let heard = [await news.next(), await news.next(), await news.next()]

        #expect(opened == .readEverything, "the first stream cannot tell what changed before it opened")
        #expect(heard == [.changed([.favourite(learner.id, "feed-1")]), .changed([.course("feed-1")]), .changed([.profile(learner.id)])])
        #expect(clock.sleeperCount == 0, "the stream never dropped")
        await server.stop()
    }

    @Test("an answer elsewhere is news of learning in its course, a review of learning alone")
    func learningNews() async throws {
        let (server, store, learner, _, client) = try await makeSUT()
        defer { client.remove() }
        var news = store.news(for: learner.id).makeAsyncIterator()
        _ = await news.next()
        let (elsewhere, _) = try await HTTPClient(baseURL: server.url).signedIn()

        _ = try await elsewhere.send("PUT", "/v1/me/enrollments/feed-2")
        let answer = try await elsewhere.send(
            "PUT", "/v1/me/enrollments/feed-2/lessons/1/questions/0/answer", json: ["chosen": [0], "at": "2026-11-24T12:00:00Z"])
        let review = try await elsewhere.send(
            "POST", "/v1/me/reviews",
            json: ["course_id": "feed-2", "lesson": 1, "question": 0, "grade": "easy", "at": "2026-11-25T12:00:00Z"])
        let heard = [await news.next(), await news.next(), await news.next(), await news.next()]

        #expect([answer.status, review.status] == [Int](repeating: 200, count: 2))
        #expect(
            heard == [
                .changed([.enrollment(learner.id, "feed-2")]), .changed([.course("feed-2")]), .changed([.learning(learner.id, "feed-2")]),
                .changed([.learning(learner.id, nil)]),
            ])
        await server.stop()
    }

    @Test("news of an import empties the lessons kept this session: a lesson rewritten is read afresh")
    func importForgetsLessons() async throws {
        let (server, store, learner, _, client) = try await makeSUT()
        defer { client.remove() }
        var news = store.news(for: learner.id).makeAsyncIterator()
        _ = await news.next()
        #expect(try await store.lessonContent(courseID: "feed-2", lesson: 1).body == nil)

        try server.addCourses([
            (.fixture(id: "feed-2", title: "Feed Two"), [Lesson(title: "Ask", minutes: 5, content: LessonContent(body: "Rewritten"))])
        ])
        #expect(await news.next() == .changed([.catalog]))

        #expect(try await store.lessonContent(courseID: "feed-2", lesson: 1).body == "Rewritten")
        await server.stop()
    }

    @Test("after the server restarts, the feed opens the stream again with Last-Event-ID: what was written meanwhile comes, nothing twice")
    func resumesAfterRestart() async throws {
        let directory = try await ServerProcess.preparedDirectory(courses: [CourseEntry(course: .fixture(id: "feed-1", title: "Feed One"))])
        defer { directory.remove() }
        let (server, port) = try await Self.serverBelowEphemeralPorts(directory)
        let client = TemporaryDirectory(prefix: "edugo-remote-feed")
        defer { client.remove() }
        let clock = ManualClock()
        let store = RemoteStore(
            server: server.baseURL, dataDirectory: client.url, httpClient: testHTTPClient, clock: clock, timeLimitClock: ManualClock())
        let learner = try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        var news = store.news(for: learner.id).makeAsyncIterator()
        _ = await news.next()
        let (elsewhere, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        _ = try await elsewhere.send("PUT", "/v1/me/favourites/feed-1")
        let before = await news.next()

        server.signal(SIGTERM)
        let stopped = await server.waitForExit()
        // While the server is down: an import into its database.
        let file = directory.url.appendingPathComponent("courses.json")
        try Data(
            #"[{"id": "feed-2", "title": "Feed Two", "instructor": "Ana", "level": "beginner", "duration_minutes": 60, "price": 0, "currency": "EUR", "description": "Two."}]"#
                .utf8
        ).write(to: file)
        let imported = try await BuiltProduct.run("edugo-server", ["import-courses", file.path, "--data-dir", directory.path])
        let restarted = try await ServerProcess(directory: directory, port: port)
        await clock.waitForSleeper()
        clock.advance(by: .seconds(1))
        let after = await news.next()
        _ = try await HTTPClient(baseURL: restarted.baseURL, token: elsewhere.token).send("DELETE", "/v1/me/favourites/feed-1")
        let live = await news.next()

        #expect(stopped == 0 && imported.status == 0)
        #expect(before == .changed([.favourite(learner.id, "feed-1")]))
        #expect(after == .changed([.catalog]), "resumed after its last event, not read everything: \(String(describing: after))")
        #expect(live == .changed([.favourite(learner.id, "feed-1")]))
    }

    @Test("the sign-in ending on the server (another instance of this data directory logs out) ends the session here, and the news")
    func signedOutElsewhere() async throws {
        let (server, store, learner, _, client) = try await makeSUT()
        defer { client.remove() }
        var events = store.events.makeAsyncIterator()
        var news = store.news(for: learner.id).makeAsyncIterator()
        _ = await news.next()
        let sameDirectory = RemoteStore(
            server: server.url, dataDirectory: client.url, httpClient: testHTTPClient, timeLimitClock: ManualClock())
        _ = try await sameDirectory.restoreSession()

        try await sameDirectory.signOut(userID: learner.id)
        let ended = await news.next()

        #expect(ended == nil, "the news end with the sign-in")
        #expect(await events.next() == .sessionEnded)
        await #expect(throws: AppError.notSignedIn) { try await store.favourites(userID: learner.id) }
        await server.stop()
    }

    @Test(
        "a reader that stops reading closes its request: 70 feeds opened and dropped one after another never fill the 64 connections of one address"
    )
    func stoppingClosesTheRequest() async throws {
        let (server, store, learner, _, client) = try await makeSUT()
        defer { client.remove() }

        var opened = 0
        for _ in 0..<70 {
            let reading = Task {
                var news = store.news(for: learner.id).makeAsyncIterator()
                return await news.next()
            }
            if await reading.value == .readEverything { opened += 1 }
        }

        #expect(opened == 70)
        await server.stop()
    }

    // MARK: - Helpers

    /// A server with a course (`feed-1`), and a store signed in as the demo learner whose
    /// feed waits on a clock of the test's.
    private func makeSUT() async throws -> (InProcessServer, RemoteStore, User, ManualClock, TemporaryDirectory) {
        let server = try await InProcessServer.start()
        let question = Question(prompt: "Which?", choices: ["A", "B"], correct: [0], explanation: "A.")
        try server.addCourses([
            (.fixture(id: "feed-1", title: "Feed One"), nil),
            (.fixture(id: "feed-2", title: "Feed Two"), [Lesson(title: "Ask", minutes: 5, content: LessonContent(questions: [question]))]),
        ])
        let client = TemporaryDirectory(prefix: "edugo-remote-feed")
        let clock = ManualClock()
        let store = RemoteStore(
            server: server.url, dataDirectory: client.url, httpClient: testHTTPClient, clock: clock, timeLimitClock: ManualClock())
        let learner = try await store.signIn(email: "demo@edugo.dev", password: "edugo-demo")
        return (server, store, learner, clock, client)
    }

    /// The real server on a free port from 20000 to 31999: below the range the system hands out
    /// for port 0 and outgoing connections, so nothing else takes it while the server is down,
    /// and it can start again there once its process is gone.
    private static func serverBelowEphemeralPorts(_ directory: TemporaryDirectory) async throws -> (ServerProcess, Int) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let port = Int.random(in: 20_000..<32_000, using: &generator)
            if let server = try? await ServerProcess(directory: directory, port: port) { return (server, port) }
        }
        throw ServerTestError("no free port from 20000 to 31999")
    }
}
