import Foundation
import GRDB
import ServerTestSupport
import SharedKernel
import TestSupport
import Testing

/// `GET /v1/me/events` of the real server process: each learner's changes and the public
/// catalog's, live, resumed with `Last-Event-ID`, ended with the sign-in.
@Suite("Server: the event stream", .serialized)
struct EventStreamTests {
    @Test("a write by one client reaches another stream of the same learner and not another learner's; seats taken reach everyone")
    func writesReachTheirLearner() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory(learners: 1))
        let (writer, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let (reader, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let (other, _) = try await HTTPClient(baseURL: server.baseURL).signedIn(email: "learner1@example.com", password: "password-1")
        let mine = try await EventStreamConnection(to: server.baseURL, token: try #require(reader.token))
        let theirs = try await EventStreamConnection(to: server.baseURL, token: try #require(other.token))
        let openings = [try await mine.nextEvent(), try await theirs.nextEvent()]

        let favourite = try await writer.send("PUT", "/v1/me/favourites/docker-essentials")
        let enrolled = try await other.send("PUT", "/v1/me/enrollments/agile-scrum")
        let mineSaw = [try await mine.nextEvent(), try await mine.nextEvent()]
        let theirsSaw = [try await theirs.nextEvent(), try await theirs.nextEvent()]

        #expect(mine.status == 200 && mine.headers["content-type"] == "text/event-stream")
        #expect(openings.map { $0?.name } == ["ready", "ready"])
        #expect(favourite.status == 204 && enrolled.status == 201)
        #expect(mineSaw.map { $0?.name } == ["favourite", "course"], "\(mineSaw)")
        #expect(mineSaw.map { $0?.courseID } == ["docker-essentials", "agile-scrum"])
        #expect(theirsSaw.map { $0?.name } == ["enrollment", "course"], "the demo learner's favourite is not theirs: \(theirsSaw)")
        #expect(theirsSaw.map { $0?.courseID } == ["agile-scrum", "agile-scrum"])
        #expect(mineSaw[1]?.id == theirsSaw[1]?.id, "one change, one id, on every stream")
    }

    @Test("a first answer reaches the learner's streams as learning with its course, a review as learning alone; an answer kept, nothing")
    func learningEvents() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let (writer, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let stream = try await EventStreamConnection(to: server.baseURL, token: try #require(writer.token))
        _ = try await stream.nextEvent()

        let question = "/v1/me/enrollments/swift-fundamentals/lessons/4/questions/0/answer"
        let answered = try await writer.send("PUT", question, json: ["chosen": [0], "at": "2030-01-01T12:00:00Z"])
        let again = try await writer.send("PUT", question, json: ["chosen": [1], "at": "2030-01-01T12:00:00Z"])
        // The demo's first card of the Linux course is long due by then.
        let reviewed = try await writer.send(
            "POST", "/v1/me/reviews",
            json: ["course_id": "linux-command-line", "lesson": 1, "question": 0, "grade": "good", "at": "2030-01-01T12:00:00Z"])
        let heard = [try await stream.nextEvent(), try await stream.nextEvent()]

        #expect([answered.status, again.status, reviewed.status] == [Int](repeating: 200, count: 3))
        #expect(heard.map { $0?.name } == ["learning", "learning"], "\(heard)")
        #expect(heard.map { $0?.courseID } == ["swift-fundamentals", nil])
    }

    @Test(
        "without Last-Event-ID the stream starts with ready at the newest change; resuming after an id sends what came since, then goes on"
    )
    func resumesAfterAnID() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let token = try #require(client.token)
        let first = try await EventStreamConnection(to: server.baseURL, token: token)
        let ready = try #require(try await first.nextEvent())

        _ = try await client.send("PUT", "/v1/me/favourites/docker-essentials")
        let heard = try #require(try await first.nextEvent())
        first.disconnect()
        _ = try await client.send("PATCH", "/v1/me", json: ["name": "Renamed Learner"])
        _ = try await client.send("DELETE", "/v1/me/favourites/docker-essentials")
        let resumed = try await EventStreamConnection(to: server.baseURL, token: token, lastEventID: heard.id)
        let replayed = [try await resumed.nextEvent(), try await resumed.nextEvent(), try await resumed.nextEvent()]
        _ = try await client.send("PUT", "/v1/me/favourites/git-mastery")
        let live = try await resumed.nextEvent()

        #expect(ready.name == "ready" && ready.id?.isEmpty == false)
        #expect(heard.name == "favourite" && heard.id != ready.id)
        #expect(replayed.map { $0?.name } == ["ready", "profile", "favourite"], "\(replayed)")
        #expect(replayed[0]?.id == heard.id, "ready says where the stream resumed")
        #expect(live?.name == "favourite" && live?.courseID == "git-mastery")
    }

    @Test("the feed resumes after the server restarts: an import made while it was down comes first, then the stream goes on live")
    func resumesAfterRestart() async throws {
        let directory = try await ServerProcess.preparedDirectory()
        let before = try await ServerProcess(directory: directory)
        let (client, _) = try await HTTPClient(baseURL: before.baseURL).signedIn()
        let token = try #require(client.token)
        let stream = try await EventStreamConnection(to: before.baseURL, token: token)
        _ = try await stream.nextEvent()
        _ = try await client.send("PUT", "/v1/me/favourites/docker-essentials")
        let last = try #require(try await stream.nextEvent())

        before.signal(SIGTERM)
        let stopped = await before.waitForExit()
        let endedByShutdown = await stream.ends()
        let file = directory.url.appendingPathComponent("courses.json")
        try Data(
            """
            [{"id": "rust-101", "title": "Rust from Zero", "instructor": "Ferris Crab", "level": "beginner",
              "duration_minutes": 60, "price": 0, "currency": "EUR", "description": "Ownership, gently."}]
            """.utf8
        ).write(to: file)
        let imported = try await BuiltProduct.run("edugo-server", ["import-courses", file.path, "--data-dir", directory.path])
        let after = try await ServerProcess(directory: directory)
        let again = HTTPClient(baseURL: after.baseURL, token: token)
        let resumed = try await EventStreamConnection(to: after.baseURL, token: token, lastEventID: last.id)
        let replayed = [try await resumed.nextEvent(), try await resumed.nextEvent()]
        _ = try await again.send("DELETE", "/v1/me/favourites/docker-essentials")
        let live = try await resumed.nextEvent()

        #expect(stopped == 0)
        #expect(endedByShutdown, "a shutdown ends the streams rather than waiting on them")
        #expect(imported.status == 0)
        #expect(resumed.status == 200, "a stream opened as soon as the server listens is taken")
        #expect(replayed.map { $0?.name } == ["ready", "catalog"], "\(replayed)")
        #expect(live?.name == "favourite")
    }

    @Test("log out sends signed_out to the streams of that sign-in, which then end; another sign-in's stream stays open")
    func logOutEndsItsStreams() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let (leaving, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let (staying, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let ending = try await EventStreamConnection(to: server.baseURL, token: try #require(leaving.token))
        let going = try await EventStreamConnection(to: server.baseURL, token: try #require(staying.token))
        _ = try await ending.nextEvent()
        _ = try await going.nextEvent()

        let out = try await leaving.send("DELETE", "/v1/sessions/current")
        let said = try await ending.nextEvent()
        let ended = await ending.ends()
        _ = try await staying.send("PUT", "/v1/me/favourites/docker-essentials")
        let stayingSaw = try await going.nextEvent()
        let reopened = try await leaving.send("GET", "/v1/me/events")

        #expect(out.status == 204)
        #expect(said?.name == "signed_out")
        #expect(ended, "the stream of the ended sign-in does not stay open")
        #expect(stayingSaw?.name == "favourite", "the other sign-in heard no signed_out: \(String(describing: stayingSaw))")
        #expect(reopened.status == 401)
    }

    @Test("a refresh token presented twice ends its sign-in, and its stream hears signed_out")
    func replayedRefreshEndsTheStream() async throws {
        let server = try await ServerProcess(directory: try await ServerProcess.preparedDirectory())
        let (client, session) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let refresh = try #require(session["refresh_token"] as? String)
        let stream = try await EventStreamConnection(to: server.baseURL, token: try #require(client.token))
        _ = try await stream.nextEvent()

        _ = try await client.send("POST", "/v1/sessions/refresh", json: ["refresh_token": refresh])
        let replayed = try await client.send("POST", "/v1/sessions/refresh", json: ["refresh_token": refresh])

        #expect(replayed.status == 401)
        #expect(try await stream.nextEvent()?.name == "signed_out")
        #expect(await stream.ends())
    }

    /// `Last-Event-ID`s a stream cannot resume from, each read as read everything.
    static let unknownPositions: [String] = [
        "past the newest", "of another database", "not an id", "before what is kept", "a very long one",
    ]

    @Test(
        "a Last-Event-ID that cannot be resumed gets read_everything at the newest change, then the stream goes on",
        arguments: unknownPositions)
    func unknownPosition(_ kind: String) async throws {
        let directory = try await ServerProcess.preparedDirectory()
        // What is kept starts at change 50 (as if 100,000 more had come and gone).
        let database = try DatabaseQueue(path: directory.url.appendingPathComponent("edugo.sqlite").path)
        try await database.write { db in
            try db.execute(sql: "UPDATE change_horizon SET forgotten_through = 50")
            try db.execute(sql: "INSERT INTO change_event (id, kind) VALUES (60, 'catalog')")
        }
        let server = try await ServerProcess(directory: directory)
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let token = try #require(client.token)
        let fresh = try await EventStreamConnection(to: server.baseURL, token: token)
        let newest = try #require(try await fresh.nextEvent()?.id)
        let log = String(newest.split(separator: "-").first ?? "")
        let position =
            switch kind {
            case "past the newest": "\(log)-9999"
            case "of another database": "0123456789ab-60"
            case "not an id": "not-an-id"
            case "before what is kept": "\(log)-10"
            default: String(repeating: "9", count: 10_000)
            }

        let stream = try await EventStreamConnection(to: server.baseURL, token: token, lastEventID: position)
        let first = try await stream.nextEvent()
        _ = try await client.send("PUT", "/v1/me/favourites/docker-essentials")
        let next = try await stream.nextEvent()

        #expect(stream.status == 200)
        #expect(first?.name == "read_everything" && first?.id == newest, "\(String(describing: first))")
        #expect(next?.name == "favourite")
    }

    @Test("a stream with nothing to say outlives the connection timeout on keep-alives, and still hears the next change")
    func keepAlive() async throws {
        let server = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(), arguments: ["--connection-timeout", "2"])
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let stream = try await EventStreamConnection(to: server.baseURL, token: try #require(client.token), readLimit: .seconds(10))
        _ = try await stream.nextEvent()
        let started = ContinuousClock.now

        var keepAlives = 0
        while keepAlives < 4 {
            if try await stream.next()?.isKeepAlive == true { keepAlives += 1 }
        }
        let quiet = ContinuousClock.now - started
        _ = try await client.send("PUT", "/v1/me/favourites/docker-essentials")
        let heard = try await stream.nextEvent()

        #expect(quiet > .seconds(2), "the keep-alives came every half connection timeout, so this outlived it")
        #expect(heard?.name == "favourite")
    }

    @Test("streams count against the connections of one address: the 65th is closed at once, another address is served")
    func streamsCountAsConnections() async throws {
        // One learner's streams, as many as an address's connections.
        let server = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(), arguments: ["--streams-per-learner", "100"])
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let token = try #require(client.token)
        var streams: [EventStreamConnection] = []
        for _ in 0..<64 {
            let stream = try await EventStreamConnection(to: server.baseURL, from: "127.0.0.7", token: token)
            _ = try await stream.nextEvent()
            streams.append(stream)
        }

        let refused = await Self.opens(server.baseURL, from: "127.0.0.7", token: token)
        let elsewhere = await Self.opens(server.baseURL, from: "127.0.0.8", token: token)

        #expect(!refused)
        #expect(elsewhere)
        #expect(streams.count == 64)
    }

    @Test("a client that hangs up frees its connection at once: 70 streams opened and dropped one after another from one address")
    func hangUpFreesTheConnection() async throws {
        // The learner's own limit is ConnectionHoardingTests': here only the address's counts.
        let server = try await ServerProcess(
            directory: try await ServerProcess.preparedDirectory(), arguments: ["--streams-per-learner", "100"])
        let (client, _) = try await HTTPClient(baseURL: server.baseURL).signedIn()
        let token = try #require(client.token)

        var opened = 0
        for _ in 0..<70 {
            guard let stream = try? await EventStreamConnection(to: server.baseURL, from: "127.0.0.9", token: token),
                (try? await stream.nextEvent()) != nil
            else { continue }
            opened += 1
            stream.disconnect()
        }

        #expect(opened == 70)
    }

    // MARK: - Helpers

    /// Whether a stream from `source` opens (its first event arrives).
    static func opens(_ server: URL, from source: String, token: String) async -> Bool {
        guard let stream = try? await EventStreamConnection(to: server, from: source, token: token, readLimit: .seconds(5)) else {
            return false
        }
        return (try? await stream.nextEvent()) != nil
    }
}
