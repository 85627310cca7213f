import Foundation
import Platform
import PostgresStore
import ServerTestSupport
import SharedKernel
import Storage
import TestSupport
import Testing

/// Two `edugo-server` processes on one PostgreSQL database are one platform.
@Suite(
    "Server: two processes on one PostgreSQL database", .serialized,
    .enabled(if: PostgresTestCluster.isAvailable, "EDUGO_TEST_POSTGRES names no cluster"))
struct TwoServersTests {
    /// A migrated database with the built-in catalog, `courses` and `learners` learners
    /// (learner1@example.com / password-1 …), and two servers on it.
    static func twoServers(learners: Int = 0, courses: [CourseEntry] = []) async throws -> (
        PostgresTestDatabase, ServerProcess, ServerProcess
    ) {
        let catalog = try BuiltInCatalog.load() + courses
        let test = try await PostgresTestDatabase.migrated(courses: catalog.map { (course: $0.course, lessons: $0.lessons) })
        let accounts = AccountService(store: PostgresAccountStore(database: test.database), hasher: TestPasswordHasher.cheap)
        for number in stride(from: 1, through: learners, by: 1) {
            _ = try await accounts.register(name: "Learner", email: "learner\(number)@example.com", password: "password-\(number)")
        }
        // Many learners from one test address: no per-address limit on their sign-ins.
        async let first = ServerProcess(arguments: ["--database", test.url, "--rate-limit", "0"])
        async let second = ServerProcess(arguments: ["--database", test.url, "--rate-limit", "0"])
        return (test, try await first, try await second)
    }

    @Test("two servers started at once on a new database: migrated and seeded once, both serving")
    func startTogether() async throws {
        let test = try await PostgresTestDatabase.create()
        async let first = ServerProcess(arguments: ["--database", test.url])
        async let second = ServerProcess(arguments: ["--database", test.url])
        let (one, two) = try await (first, second)

        let pages = try await [
            HTTPClient(baseURL: one.baseURL).get("/v1/courses?limit=1"), HTTPClient(baseURL: two.baseURL).get("/v1/courses?limit=1"),
        ]
        let signIns = try await [HTTPClient(baseURL: one.baseURL).signedIn().1, HTTPClient(baseURL: two.baseURL).signedIn().1]

        #expect(pages.map { $0.json["total"] as? Int } == [64, 64])
        #expect(signIns.map { ($0["user"] as? [String: Any])?["id"] as? Int } == [1, 1])
        await test.drop()
    }

    @Test("one seat left, 40 learners, half through each server: exactly one enrollment")
    func lastSeat() async throws {
        let (test, one, two) = try await Self.twoServers(
            learners: 40,
            courses: [
                CourseEntry(course: .fixture(id: "last-seat", title: "Last Seat", capacity: 10, enrolledCount: 9))
            ])
        var clients: [HTTPClient] = []
        for number in 1...40 {
            let server = number.isMultiple(of: 2) ? one : two
            clients.append(
                try await HTTPClient(baseURL: server.baseURL).signedIn(
                    email: "learner\(number)@example.com", password: "password-\(number)"
                ).0)
        }

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for client in clients {
                group.addTask { try await client.send("PUT", "/v1/me/enrollments/last-seat").status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let seen = try await [
            HTTPClient(baseURL: one.baseURL).get("/v1/courses/last-seat"), HTTPClient(baseURL: two.baseURL).get("/v1/courses/last-seat"),
        ]

        #expect(statuses.filter { $0 == 201 }.count == 1)
        #expect(statuses.filter { $0 == 409 }.count == 39)
        #expect(seen.map { $0.json["enrolled_count"] as? Int } == [10, 10])
        await test.drop()
    }

    @Test("a page kept on one server is dropped when a seat on it moves on the other, before that server's streams hear of it")
    func keptPageAcrossServers() async throws {
        let (test, one, two) = try await Self.twoServers()
        let (onOne, _) = try await HTTPClient(baseURL: one.baseURL).signedIn()
        var onTwo = HTTPClient(baseURL: two.baseURL)
        onTwo.token = onOne.token
        let stream = try await EventStreamConnection(to: two.baseURL, token: try #require(onTwo.token))
        #expect(try await stream.nextEvent()?.name == "ready")
        let open = try await onOne.get("/v1/courses?limit=100&query=is:open").json["courses"] as? [[String: Any]] ?? []
        let id = try #require(open.first?["id"] as? String)
        let search = "/v1/courses?limit=100"
        let kept = try await onTwo.get(search)
        #expect(try await onTwo.get(search).body == kept.body, "kept on the second server")
        let seats = (kept.json["courses"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id }?["enrolled_count"] as? Int

        #expect(try await onOne.send("PUT", "/v1/me/enrollments/\(id)").status == 201)
        var heard: String?
        repeat { heard = try await stream.nextEvent()?.name } while heard != nil && heard != "course"
        let fresh = try await onTwo.get(search)
        let row = (fresh.json["courses"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id }
        #expect(heard == "course")
        #expect(seats != nil && row?["enrolled_count"] as? Int == seats.map { $0 + 1 }, "the page as it is once the change is heard")
        withExtendedLifetime(stream) {}
        await test.drop()
    }

    @Test("a token from one server works on the other; a refresh token replayed on the other ends the sign-in everywhere")
    func tokensAcrossServers() async throws {
        let (test, one, two) = try await Self.twoServers()
        let (onOne, session) = try await HTTPClient(baseURL: one.baseURL).signedIn()
        var onTwo = HTTPClient(baseURL: two.baseURL)
        onTwo.token = onOne.token
        let firstRefresh = try #require(session["refresh_token"] as? String)

        let me = try await onTwo.get("/v1/me")
        let rotated = try await HTTPClient(baseURL: two.baseURL).send("POST", "/v1/sessions/refresh", json: ["refresh_token": firstRefresh])
        let newRefresh = try #require(rotated.json["refresh_token"] as? String)
        let replayed = try await HTTPClient(baseURL: one.baseURL).send(
            "POST", "/v1/sessions/refresh", json: ["refresh_token": firstRefresh])
        let afterReplay = try await HTTPClient(baseURL: two.baseURL).send(
            "POST", "/v1/sessions/refresh", json: ["refresh_token": newRefresh])

        #expect(me.status == 200 && me.json["email"] as? String == "demo@edugo.dev")
        #expect(rotated.status == 200)
        #expect(replayed.status == 401)
        #expect(afterReplay.status == 401, "the whole sign-in ended, on the other server too")
        await test.drop()
    }

    @Test("every lesson of a course marked at once, half through each server: all of them kept, and the course completed once")
    func lessonsAcrossServers() async throws {
        let (test, one, two) = try await Self.twoServers()
        let (onOne, _) = try await HTTPClient(baseURL: one.baseURL).signedIn()
        var onTwo = HTTPClient(baseURL: two.baseURL)
        onTwo.token = onOne.token
        let enrolled = try await onOne.send("PUT", "/v1/me/enrollments/japanese-beginners")
        let lessons = try #require((try await onOne.get("/v1/courses/japanese-beginners")).json["lessons"] as? [Any]).count

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for lesson in 1...lessons {
                let client = lesson.isMultiple(of: 2) ? onOne : onTwo
                group.addTask { try await client.send("PUT", "/v1/me/enrollments/japanese-beginners/lessons/\(lesson)").status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let mine = (try await onTwo.get("/v1/me/enrollments")).json["enrollments"] as? [[String: Any]] ?? []
        let kept = try #require(mine.first { ($0["course"] as? [String: Any])?["id"] as? String == "japanese-beginners" })

        #expect(enrolled.status == 201 && lessons == 12)
        #expect(statuses == Array(repeating: 200, count: lessons))
        #expect((kept["lessons_done"] as? [Int])?.sorted() == Array(1...lessons))
        #expect(kept["status"] as? String == "completed" && kept["completed_at"] is String)
        await test.drop()
    }

    @Test("a write on one server reaches a stream on the other (the log polled); a stream resumed on the other picks up where it stopped")
    func eventsAcrossServers() async throws {
        let (test, one, two) = try await Self.twoServers(learners: 1)
        let (onOne, _) = try await HTTPClient(baseURL: one.baseURL).signedIn()
        let (otherOnOne, _) = try await HTTPClient(baseURL: one.baseURL).signedIn(email: "learner1@example.com", password: "password-1")
        let token = try #require(onOne.token)
        let onTwo = try await EventStreamConnection(to: two.baseURL, token: token)
        _ = try await onTwo.nextEvent()

        _ = try await onOne.send("PUT", "/v1/me/favourites/docker-essentials")
        _ = try await otherOnOne.send("PUT", "/v1/me/enrollments/agile-scrum")
        let heard = [try await onTwo.nextEvent(), try await onTwo.nextEvent()]
        onTwo.disconnect()
        _ = try await onOne.send("PATCH", "/v1/me", json: ["name": "Renamed Learner"])
        let resumed = try await EventStreamConnection(to: one.baseURL, token: token, lastEventID: heard[1]?.id)
        let replayed = [try await resumed.nextEvent(), try await resumed.nextEvent()]

        #expect(heard.map { $0?.name } == ["favourite", "course"], "\(heard)")
        #expect(heard.map { $0?.courseID } == ["docker-essentials", "agile-scrum"])
        #expect(replayed.map { $0?.name } == ["ready", "profile"], "one log, one set of ids, on every server: \(replayed)")
        await test.drop()
    }

    @Test("failed sign-ins count on every server: 10 spread over both, then 429 on either")
    func rateLimitAcrossServers() async throws {
        let (test, one, two) = try await Self.twoServers()
        for attempt in 0..<10 {
            let server = attempt.isMultiple(of: 2) ? one : two
            let failed = try await HTTPClient(baseURL: server.baseURL).send(
                "POST", "/v1/sessions", json: ["email": "demo@edugo.dev", "password": "wrong-\(attempt)"])
            #expect(failed.status == 401)
        }

        let blocked = try await [one, two].asyncMap { server in
            try await HTTPClient(baseURL: server.baseURL).send(
                "POST", "/v1/sessions", json: ["email": "demo@edugo.dev", "password": "edugo-demo"])
        }

        #expect(blocked.map(\.status) == [429, 429])
        #expect(blocked.allSatisfy { (Int($0.headers["retry-after"] ?? "") ?? 0) > 0 })
        await test.drop()
    }

    @Test(
        "import-courses --database: into a new database (migrated and seeded first), then again; an unknown prerequisite or a cycle changes nothing"
    )
    func importCourses() async throws {
        let test = try await PostgresTestDatabase.create()
        let directory = TemporaryDirectory(prefix: "edugo-server-tests")
        defer { directory.remove() }
        func file(_ name: String, _ json: String) throws -> String {
            let url = directory.url.appendingPathComponent(name)
            try Data(json.utf8).write(to: url)
            return url.path
        }
        let good = try file(
            "good.json",
            """
            [{"id": "rust-101", "title": "Rust from Zero", "instructor": "Ferris Crab", "level": "beginner",
              "duration_minutes": 60, "price": 0, "currency": "EUR", "description": "Ownership, gently."},
             {"id": "rust-201", "title": "Rust, Further", "instructor": "Ferris Crab", "level": "intermediate",
              "duration_minutes": 90, "price": 0, "currency": "EUR", "description": "Lifetimes.", "prerequisite_id": "rust-101"}]
            """)
        let unknown = try file(
            "unknown.json",
            """
            [{"id": "go-101", "title": "Go", "instructor": "Gopher", "level": "beginner", "duration_minutes": 60,
              "price": 0, "currency": "EUR", "description": "Goroutines.", "prerequisite_id": "nowhere"}]
            """)
        let cycle = try file(
            "cycle.json",
            """
            [{"id": "rust-101", "title": "Rust from Zero", "instructor": "Ferris Crab", "level": "beginner",
              "duration_minutes": 60, "price": 0, "currency": "EUR", "description": "Ownership, gently.", "prerequisite_id": "rust-201"}]
            """)

        let first = try await BuiltProduct.run("edugo-server", ["import-courses", good, "--database", test.url])
        let again = try await BuiltProduct.run("edugo-server", ["import-courses", good, "--database", test.url])
        let refusedUnknown = try await BuiltProduct.run("edugo-server", ["import-courses", unknown, "--database", test.url])
        let refusedCycle = try await BuiltProduct.run("edugo-server", ["import-courses", cycle, "--database", test.url])
        // A file that does not parse reads the same whatever the store (one reader for both).
        let broken = try file("broken.json", #"[{"id": "rust-101", "level": "expert"}]"#)
        let brokenHere = try await BuiltProduct.run("edugo-server", ["import-courses", broken, "--database", test.url])
        let brokenThere = try await BuiltProduct.run("edugo-server", ["import-courses", broken, "--data-dir", directory.path])
        let server = try await ServerProcess(arguments: ["--database", test.url])
        let client = HTTPClient(baseURL: server.baseURL)
        let rust = try await client.get("/v1/courses/rust-101")
        let go = try await client.get("/v1/courses/go-101")
        let all = try await client.get("/v1/courses?limit=1")

        #expect(first.status == 0 && first.output.contains("2 added, 0 updated"), "\(first.output) \(first.errors)")
        #expect(again.status == 0 && again.output.contains("0 added, 2 updated"))
        #expect(refusedUnknown.status == 1 && refusedUnknown.errors.contains("nowhere"), "\(refusedUnknown.errors)")
        #expect(refusedCycle.status == 1 && refusedCycle.errors.contains("nothing was changed"), "\(refusedCycle.errors)")
        #expect(
            brokenHere.status == 1 && brokenHere.errors.contains("cannot import \(broken), nothing was changed: "), "\(brokenHere.errors)")
        #expect(brokenHere.errors == brokenThere.errors && brokenThere.status == 1, "\(brokenHere.errors) / \(brokenThere.errors)")
        #expect(rust.status == 200 && rust.json["prerequisite_id"] == nil)
        #expect(go.status == 404)
        #expect(all.json["total"] as? Int == 66, "the built-in 64 and the 2 imported")
        await test.drop()
    }

    @Test("kill -9 one server during a burst of writes: the other lists every write that was answered")
    func killOneDuringWrites() async throws {
        let (test, one, two) = try await Self.twoServers()
        let (client, _) = try await HTTPClient(baseURL: one.baseURL).signedIn()
        let page = try await client.get("/v1/courses?limit=60")
        let ids = (page.json["courses"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }

        let acknowledged = await withTaskGroup(of: String?.self) { group in
            for (index, id) in ids.enumerated() {
                group.addTask {
                    if index == 20 { one.signal(SIGKILL) }
                    let answer = try? await client.send("PUT", "/v1/me/favourites/\(id)")
                    return answer?.status == 204 ? id : nil
                }
            }
            return await group.reduce(into: Set<String>()) { if let id = $1 { $0.insert(id) } }
        }
        _ = await one.waitForExit()
        var other = HTTPClient(baseURL: two.baseURL)
        other.token = client.token
        let stored = Set(
            ((try await other.get("/v1/me/favourites")).json["courses"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })

        #expect(acknowledged.isSubset(of: stored), "lost: \(acknowledged.subtracting(stored))")
        #expect(acknowledged.count < ids.count, "the kill came before the burst ended")
        await test.drop()
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
